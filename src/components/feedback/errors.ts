/** Error normalisation lives with the HTTP client (the data provider needs it too); screens import it from here. */
export * from '../../api/errors';
