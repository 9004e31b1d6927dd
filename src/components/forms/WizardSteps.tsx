import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useFormState } from 'react-hook-form';
import { useTranslate } from 'react-admin';
import { Step, StepButton, StepLabel, Stepper, Typography } from '@mui/material';

const firstWrong = (root: RefObject<HTMLElement | null>, step: string) =>
  root.current?.querySelector<HTMLElement>(`[data-step=${step}] input[aria-invalid=true], [data-step=${step}] textarea[aria-invalid=true]`);

/**
 * After the render, the first wrong input of a step: focused (a save with errors), or only scrolled into
 * sight (a refused "Avanti": focusing a picker would open its list under the user's next tap).
 */
export function focusFirstWrong(root: RefObject<HTMLElement | null>, step: string, how: 'focus' | 'show' = 'focus') {
  requestAnimationFrame(() => {
    const el = firstWrong(root, step);
    if (how === 'focus') el?.focus();
    else el?.scrollIntoView({ block: 'center' });
  });
}

/**
 * The steps of a create wizard (companies, users) and what they say about errors (issue 35 item 13: "every
 * step of a stepper shows its errors"): each label counts its wrong fields (the form's checks and the
 * server's), a save with errors opens the first step that has one and focuses its first wrong input, and once
 * a save was tried every step can be opened from its label. The steps' panels are the caller's, marked
 * `data-step={name}` inside `root`.
 */
export function WizardSteps<S extends string>({
  steps,
  active,
  setActive,
  fieldsOf,
  label,
  root,
  testId,
}: {
  steps: S[];
  active: number;
  setActive: (index: number) => void;
  fieldsOf: (step: S) => string[];
  label: (step: S) => ReactNode;
  root: RefObject<HTMLElement | null>;
  /** `company` → data-testid company-steps, company-step-{s}, company-step-errors-{s} */
  testId: string;
}) {
  const translate = useTranslate();
  const { errors, submitCount } = useFormState();
  const wrong = (s: S) => fieldsOf(s).filter((f) => errors[f]).length;
  const open = (index: number) => {
    setActive(index);
    focusFirstWrong(root, steps[index]);
  };
  const seen = useRef(submitCount);
  useEffect(() => {
    if (submitCount === seen.current) return;
    seen.current = submitCount;
    const first = steps.findIndex((s) => wrong(s) > 0);
    if (first >= 0) open(first);
  }, [submitCount, errors]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <Stepper activeStep={active} alternativeLabel nonLinear={submitCount > 0} sx={{ mb: 3 }} data-testid={`${testId}-steps`}>
      {steps.map((s, i) => {
        const n = wrong(s);
        const optional =
          n > 0 ? (
            <Typography variant="caption" color="error" data-testid={`${testId}-step-errors-${s}`}>
              {translate('portal.step_errors', { smart_count: n })}
            </Typography>
          ) : undefined;
        const text = (
          <StepLabel error={n > 0} data-testid={`${testId}-step-${s}`} optional={optional}>
            {label(s)}
          </StepLabel>
        );
        // StepButton hands its own `optional` to the label it wraps.
        return (
          <Step key={s} completed={false}>
            {submitCount > 0 ? (
              <StepButton onClick={() => open(i)} optional={optional}>
                {text}
              </StepButton>
            ) : (
              text
            )}
          </Step>
        );
      })}
    </Stepper>
  );
}
