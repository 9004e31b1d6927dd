import { afterEach, describe, expect, it, vi } from 'vitest';

/** The theme as a browser with the given motion preference makes it (brandTheme.ts reads it at load). */
async function themeFor(reduce: boolean) {
  vi.resetModules();
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: reduce && query === '(prefers-reduced-motion: reduce)', media: query }));
  return (await import('./brandTheme')).brandTheme as {
    transitions?: { create?: () => string; duration?: Record<string, number> };
    components?: Record<string, { defaultProps?: Record<string, unknown> }>;
  };
}

describe('the brand theme and prefers-reduced-motion', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the documented transitions for everyone else (dialogs 300 ms, backdrop 150 ms)', async () => {
    const t = await themeFor(false);
    expect(t.transitions?.duration?.enteringScreen).toBe(300);
    expect(t.components?.MuiDialog?.defaultProps?.transitionDuration).toBe(300);
    expect(t.components?.MuiBackdrop?.defaultProps?.transitionDuration).toBe(150);
    expect(t.components?.MuiButtonBase?.defaultProps?.disableRipple).toBeUndefined();
  });

  it('moves nothing for a user who asks for reduced motion', async () => {
    const t = await themeFor(true);
    expect(t.transitions?.create?.()).toBe('none');
    expect(Object.values(t.transitions?.duration ?? {}).every((d) => d === 0)).toBe(true);
    for (const c of ['MuiDialog', 'MuiBackdrop', 'MuiPopover', 'MuiMenu', 'MuiSnackbar', 'MuiDrawer'])
      expect(t.components?.[c]?.defaultProps?.transitionDuration, c).toBe(0);
    expect(t.components?.MuiButtonBase?.defaultProps?.disableRipple).toBe(true);
  });
});
