import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { Box, Button, Typography } from '@mui/material';
import ClearIcon from '@mui/icons-material/Backspace';

/** The exported PNG's size: wide enough to read a signature on the POD's PDF, small enough (a few kB) to send from a phone. */
export const SIGNATURE_WIDTH = 600;
export const SIGNATURE_HEIGHT = 240;

export interface SignaturePadHandle {
  /** The drawing as a PNG of SIGNATURE_WIDTH × SIGNATURE_HEIGHT (white background), or null when nothing was drawn. */
  toPng(): Promise<Blob | null>;
  clear(): void;
}

/**
 * A signature drawn with a finger, a pen or the mouse (issue 36 item 2). Pointer events cover the three;
 * `touch-action: none` keeps the page from scrolling while the finger draws. The canvas keeps a fixed
 * drawing size (SIGNATURE_WIDTH × SIGNATURE_HEIGHT) and is scaled by CSS to the width it gets, so the strokes
 * land where the finger is on any phone and the PNG has the same size everywhere; the points are mapped
 * from the element's box to the canvas's. "Cancella" clears it; `onChange` tells whether something is drawn.
 */
export const SignaturePad = forwardRef<
  SignaturePadHandle,
  { label: string; clearLabel: string; hint: string; error?: string | null; onChange: (drawn: boolean) => void }
>(function SignaturePad({ label, clearLabel, hint, error, onChange }, ref) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const last = useRef<{ x: number; y: number } | null>(null);
  const [drawn, setDrawn] = useState(false);

  const paintBackground = () => {
    const c = canvas.current;
    const g = c?.getContext('2d');
    if (!c || !g) return;
    // White, not transparent: the PNG reads the same on the PDF, a dark viewer and a printer.
    g.fillStyle = '#fff';
    g.fillRect(0, 0, c.width, c.height);
    g.lineWidth = 3;
    g.lineCap = 'round';
    g.lineJoin = 'round';
    g.strokeStyle = '#111';
  };
  useEffect(paintBackground, []);

  const clear = () => {
    paintBackground();
    setDrawn(false);
    onChange(false);
  };

  useImperativeHandle(ref, () => ({
    clear,
    toPng: () =>
      new Promise<Blob | null>((resolve) => {
        if (!drawn || !canvas.current) return resolve(null);
        canvas.current.toBlob((b) => resolve(b), 'image/png');
      }),
  }));

  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - r.left) / r.width) * SIGNATURE_WIDTH, y: ((e.clientY - r.top) / r.height) * SIGNATURE_HEIGHT };
  };
  const down = (e: React.PointerEvent<HTMLCanvasElement>) => {
    e.preventDefault();
    // The strokes go on when the finger slides past the edge; a pointer the browser does not know (a
    // synthetic event) cannot be captured, and the drawing goes on without.
    try {
      e.currentTarget.setPointerCapture(e.pointerId);
    } catch {
      /* drawn without capture */
    }
    const p = point(e);
    last.current = p;
    // A tap leaves a dot.
    const g = e.currentTarget.getContext('2d');
    if (g) {
      g.beginPath();
      g.arc(p.x, p.y, 1.5, 0, Math.PI * 2);
      g.fillStyle = '#111';
      g.fill();
    }
    if (!drawn) {
      setDrawn(true);
      onChange(true);
    }
  };
  const move = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!last.current) return;
    e.preventDefault();
    const g = e.currentTarget.getContext('2d');
    const p = point(e);
    if (g) {
      g.beginPath();
      g.moveTo(last.current.x, last.current.y);
      g.lineTo(p.x, p.y);
      g.stroke();
    }
    last.current = p;
  };
  const up = () => {
    last.current = null;
  };

  return (
    <Box sx={{ display: 'grid', gap: 0.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography variant="subtitle2" component="span" id="pod-signature-label" sx={{ flex: 1 }}>
          {label}
        </Typography>
        <Button size="small" startIcon={<ClearIcon />} onClick={clear} disabled={!drawn} data-testid="pod-signature-clear">
          {clearLabel}
        </Button>
      </Box>
      {/* A plain <canvas>: Box would take `width`/`height` as CSS and leave the drawing at the default 300 × 150. */}
      <Box sx={{ border: 2, borderStyle: 'dashed', borderColor: error ? 'error.main' : 'divider', borderRadius: 1, overflow: 'hidden', lineHeight: 0 }}>
        <canvas
          ref={canvas}
          width={SIGNATURE_WIDTH}
          height={SIGNATURE_HEIGHT}
          role="img"
          aria-labelledby="pod-signature-label"
          aria-describedby="pod-signature-hint"
          data-testid="pod-signature"
          data-drawn={drawn ? 'true' : 'false'}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerCancel={up}
          onPointerLeave={up}
          // The height follows the width (the PNG's proportions, so a signature is not squashed).
          style={{ width: '100%', height: 'auto', display: 'block', touchAction: 'none', cursor: 'crosshair', background: '#fff' }}
        />
      </Box>
      <Typography variant="caption" id="pod-signature-hint" color={error ? 'error' : 'text.secondary'} data-testid="pod-signature-hint">
        {error ?? hint}
      </Typography>
    </Box>
  );
});
