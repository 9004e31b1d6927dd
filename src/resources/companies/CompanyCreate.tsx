import { useRef, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { CreateBase, Form, Title, usePermissions, useTranslate } from 'react-admin';
import { Box, Button, Card, CardContent } from '@mui/material';
import { WizardSteps, focusFirstWrong } from '../../components/forms/WizardSteps';
import { COMPANY_ROLE } from '../../../model/roles';
import { isEnduserCompany } from '../../../model/companies';
import { COMPANY_DEFAULTS, CompanyInputs, companyTransform, stepFields, useFormRole, type CallerKind } from './CompanyInputs';
import { FormErrorBlock, formShows } from '../../components/feedback/ErrorBlock';
import { ListTitle } from '../../components/table/ListTitle';

const T = 'resources.companies';
type StepName = 'settings' | 'details' | 'enduser';

/** The numbered steps: 3 (end-user information) only for an end-user company, which is every company a carrier creates. */
function useSteps(kind: CallerKind): StepName[] {
  const role = useWatch({ name: 'company_role_id' });
  return kind === 'carrier' || isEnduserCompany(Number(role)) ? ['settings', 'details', 'enduser'] : ['settings', 'details'];
}

function Wizard({ kind, error }: { kind: CallerKind; error: unknown }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const steps = useSteps(kind);
  const [active, setActive] = useState(0);
  const { trigger } = useFormContext();
  const role = useFormRole(kind);
  const current = steps[Math.min(active, steps.length - 1)];
  const last = active >= steps.length - 1;
  const root = useRef<HTMLDivElement>(null);
  // Steps advance in order: the current step's fields must be valid first (accounts document §4).
  const next = async () => {
    if (await trigger(stepFields(current, role))) setActive(active + 1);
    else focusFirstWrong(root, current, 'show');
  };
  return (
    <Box ref={root}>
      {/* Each label counts its wrong fields; a save with errors opens the first wrong step (issue 35). */}
      <WizardSteps
        steps={steps}
        active={active}
        setActive={setActive}
        fieldsOf={(s) => stepFields(s, role)}
        label={(s) => translate(`${T}.steps.${s}`)}
        root={root}
        testId="company"
      />
      {/* Every step stays mounted (values and rules kept); only the current one is shown. */}
      {(['settings', 'details', 'enduser'] as StepName[]).map((s) => (
        <Box key={s} sx={{ display: s === current ? 'block' : 'none' }} data-step={s} data-active={s === current ? '1' : '0'}>
          <CompanyInputs sections={s === 'details' ? ['details', 'carrier'] : [s]} kind={kind} mode="create" />
        </Box>
      ))}
      {/* What no step shows (a failure that names no field): one message, under the steps. */}
      <FormErrorBlock error={error} shown={(f) => formShows(root.current, f)} />
      {/* Distinct keys: the next button must not turn into the submit button under the click that advances. */}
      <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', mt: 2 }}>
        <Button onClick={() => navigate('/companies')} data-testid="company-cancel">
          {translate(`${T}.actions.cancel`)}
        </Button>
        {active > 0 ? (
          <Button onClick={() => setActive(active - 1)} data-testid="company-back">
            {translate(`${T}.actions.back`)}
          </Button>
        ) : null}
        {last ? (
          <Button key="save" type="submit" variant="contained" data-testid="company-save">
            {translate(`${T}.actions.save`)}
          </Button>
        ) : (
          <Button key="next" variant="contained" onClick={next} data-testid="company-next">
            {translate(`${T}.actions.next`)}
          </Button>
        )}
      </Box>
    </Box>
  );
}

/** /companies/new: steps 1 settings, 2 company information, 3 end-user information; success and cancel go back to /companies. */
export function CompanyCreate() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { permissions } = usePermissions();
  const kind: CallerKind = permissions === 'carrier' ? 'carrier' : 'admin';
  const [error, setError] = useState<unknown>(null);
  const defaults = {
    status_id: 1,
    is_inbound: 1,
    type: 'Customer',
    ...COMPANY_DEFAULTS,
    ...(kind === 'carrier' ? { company_role_id: COMPANY_ROLE.ENDUSER } : {}),
  };
  return (
    <CreateBase
      resource="companies"
      redirect={false}
      transform={companyTransform}
      mutationOptions={{
        // Field messages show under their inputs only (issue 35): the provider toasts none of them.
        meta: { fieldErrorsShown: true },
        // The server's message ("Azienda creata con successo") becomes the success toast (data provider).
        onSuccess: () => navigate('/companies'),
        // Field errors go to their inputs (the wizard opens the first wrong step); anything else to the block.
        onError: (e: unknown) => setError(e),
      }}
    >
      <Title title={translate(`${T}.create_title`)} />
      {/* The shell's top bar shows no title: the page names itself ("Nuova azienda"). */}
      <ListTitle>{translate(`${T}.create_title`)}</ListTitle>
      <Card sx={{ mt: 2 }}>
        <CardContent>
          {/* No "the form is not valid" toast: the steps and the fields say what to fix. */}
          <Form defaultValues={defaults} warnWhenUnsavedChanges={false} noValidate disableInvalidFormNotification>
            <Wizard kind={kind} error={error} />
          </Form>
        </CardContent>
      </Card>
    </CreateBase>
  );
}
