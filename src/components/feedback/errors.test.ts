import { describe, expect, it } from 'vitest';
import { HttpError } from 'react-admin';
import { toHttpError } from '../../api/http';
import { collectMessages, formErrors, isRefusal, normalizeError } from './errors';

describe('error normalisation', () => {
  it('reads an HttpError with field lists', () => {
    const e = toHttpError(422, { message: 'I dati inviati non sono validi.', errors: { name: ['Il campo nome è obbligatorio.'], code_alpha: ['a', 'b'] } });
    expect(normalizeError(e)).toEqual({
      message: 'I dati inviati non sono validi.',
      errors: { name: ['Il campo nome è obbligatorio.'], code_alpha: ['a', 'b'] },
      status: 422,
    });
  });
  it('reads field messages given as strings, and prefers the lists of a form-shaped error', () => {
    expect(normalizeError(new HttpError('x', 422, { errors: { name: 'required' } })).errors).toEqual({ name: ['required'] });
    const formShaped = new HttpError('x', 422, { errors: { name: 'a b', root: { serverError: 'x' } }, errorList: { name: ['a', 'b'] } });
    expect(normalizeError(formShaped).errors).toEqual({ name: ['a', 'b'] });
  });
  it('falls back to "Internal server error" for a body without a message, nothing, or an empty string', () => {
    expect(normalizeError(toHttpError(500, '<html>'))).toEqual({ message: 'Internal server error', errors: {}, status: 500 });
    expect(normalizeError(undefined)).toEqual({ message: 'Internal server error', errors: {} });
    expect(normalizeError('')).toEqual({ message: 'Internal server error', errors: {} });
    expect(normalizeError({})).toEqual({ message: 'Internal server error', errors: {} });
  });
  it('reads a plain Error, a string and a status:false answer', () => {
    expect(normalizeError(new Error('boom'))).toEqual({ message: 'boom', errors: {} });
    expect(normalizeError('Refused')).toEqual({ message: 'Refused', errors: {} });
    expect(normalizeError({ status: false, message: 'The price has changed' })).toEqual({ message: 'The price has changed', errors: {} });
    expect(normalizeError({ status: false, message: 'm', errors: { email: ['taken'] } }).errors).toEqual({ email: ['taken'] });
    expect(isRefusal({ status: false })).toBe(true);
    expect(isRefusal({ status: true })).toBe(false);
  });
  it('collects the banner messages: the message, then every field message, or the body message', () => {
    const e = toHttpError(422, { message: 'Invalid', errors: { name: ['Name required'], code_alpha: ['Code taken', 'Code too long'] } });
    expect(collectMessages(e)).toEqual(['Invalid', 'Name required', 'Code taken', 'Code too long']);
    const withBody = new HttpError('Request failed', 500, { message: 'Database unavailable', errors: {} });
    expect(collectMessages(withBody)).toEqual(['Request failed', 'Database unavailable']);
    expect(collectMessages({ status: false, message: 'Refused' })).toEqual(['Refused']);
    expect(collectMessages(null)).toEqual(['Internal server error']);
  });
  it('joins field lists for react-admin forms', () => {
    expect(formErrors({ name: ['a', 'b'], x: ['c'] })).toEqual({ name: 'a b', x: 'c' });
  });
});
