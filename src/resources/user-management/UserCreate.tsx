import { useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { CreateBase, Form, ResourceContextProvider, Title, useGetIdentity, useNotify, usePermissions, useTranslate } from 'react-admin';
import { Box, Button, Card, CardContent, Step, StepLabel, Stepper } from '@mui/material';
import { FormErrorBlock } from '../../components/feedback/ErrorBlock';
import { normalizeError } from '../../components/feedback/errors';
import { USER_STEP_FIELDS, UserInputs, userTransform, type CallerKind, type UserSection } from './UserInputs';
import { ListTitle } from '../../components/table/ListTitle';

const T = 'resources.user-management';
const STEPS: UserSection[] = ['settings', 'information', 'notes'];

function Wizard({ kind, error }: { kind: CallerKind; error: unknown }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [active, setActive] = useState(0);
  const { trigger } = useFormContext();
  const current = STEPS[active];
  const next = async () => {
    if (await trigger(USER_STEP_FIELDS[current])) setActive(active + 1);
  };
  return (
    <>
      <Stepper activeStep={active} alternativeLabel sx={{ mb: 3 }} data-testid="user-steps">
        {STEPS.map((s) => (
          <Step key={s}>
            <StepLabel>{translate(`${T}.steps.${s}`)}</StepLabel>
          </Step>
        ))}
      </Stepper>
      {STEPS.map((s) => (
        <Box key={s} sx={{ display: s === current ? 'block' : 'none' }} data-step={s} data-active={s === current ? '1' : '0'}>
          <UserInputs sections={[s]} kind={kind} mode="create" />
        </Box>
      ))}
      <FormErrorBlock error={error} />
      {/* Distinct keys: the next button must not turn into the submit button under the click that advances. */}
      <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', mt: 2 }}>
        <Button onClick={() => navigate('/user-management')} data-testid="user-cancel">
          {translate(`${T}.actions.cancel`)}
        </Button>
        {active > 0 ? (
          <Button onClick={() => setActive(active - 1)} data-testid="user-back">
            {translate(`${T}.actions.back`)}
          </Button>
        ) : null}
        {active === STEPS.length - 1 ? (
          <Button key="save" type="submit" variant="contained" data-testid="user-save">
            {translate(`${T}.actions.save`)}
          </Button>
        ) : (
          <Button key="next" variant="contained" onClick={next} data-testid="user-next">
            {translate(`${T}.actions.next`)}
          </Button>
        )}
      </Box>
    </>
  );
}

/**
 * /user-management/create (the documents' /create-user leads here): 1 settings (role, company, language), 2 user information, 3 notes. An admin picks the
 * company and role; a carrier's user is in its own company unless it picks one of its end-user
 * companies (then an Enduser). Cancel and success go back to /user-management.
 */
export function UserCreate() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  const kind: CallerKind = permissions === 'carrier' ? 'carrier' : 'admin';
  const notify = useNotify();
  const [error, setError] = useState<unknown>(null);
  if (kind === 'carrier' && !identity) return null;
  const defaults = { status_id: 1, ...(kind === 'carrier' ? { company_id: identity?.company_id } : {}) };
  return (
    <ResourceContextProvider value="user-management">
      <CreateBase
        resource="user-management"
        redirect={false}
        transform={userTransform}
        mutationOptions={{
          onSuccess: () => navigate('/user-management'),
          onError: (e: unknown) => {
            // Field errors show under their inputs, in the block and as toasts (data provider); others toast here.
            setError(e);
            const n = normalizeError(e);
            if (!Object.keys(n.errors).length) notify(n.message, { type: 'error', messageArgs: { _: n.message } });
          },
        }}
      >
        <Title title={translate(`${T}.create_title`)} />
        {/* The shell's top bar shows no title: the page names itself ("Nuovo utente"). */}
        <ListTitle>{translate(`${T}.create_title`)}</ListTitle>
        <Card sx={{ mt: 2 }}>
          <CardContent>
            <Form defaultValues={defaults} warnWhenUnsavedChanges={false} noValidate>
              <Wizard kind={kind} error={error} />
            </Form>
          </CardContent>
        </Card>
      </CreateBase>
    </ResourceContextProvider>
  );
}
