import { useRef, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { CreateBase, Form, ResourceContextProvider, Title, useGetIdentity, usePermissions, useTranslate } from 'react-admin';
import { Box, Button, Card, CardContent } from '@mui/material';
import { WizardSteps, focusFirstWrong } from '../../components/forms/WizardSteps';
import { FormErrorBlock, formShows } from '../../components/feedback/ErrorBlock';
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
  const root = useRef<HTMLDivElement>(null);
  const next = async () => {
    if (await trigger(USER_STEP_FIELDS[current])) setActive(active + 1);
    else focusFirstWrong(root, current, 'show');
  };
  return (
    <Box ref={root}>
      {/* Each label counts its wrong fields; a save with errors opens the first wrong step (issue 35). */}
      <WizardSteps
        steps={STEPS}
        active={active}
        setActive={setActive}
        fieldsOf={(s) => USER_STEP_FIELDS[s]}
        label={(s) => translate(`${T}.steps.${s}`)}
        root={root}
        testId="user"
      />
      {STEPS.map((s) => (
        <Box key={s} sx={{ display: s === current ? 'block' : 'none' }} data-step={s} data-active={s === current ? '1' : '0'}>
          <UserInputs sections={[s]} kind={kind} mode="create" />
        </Box>
      ))}
      {/* What no step shows (a failure that names no field): one message, under the steps. */}
      <FormErrorBlock error={error} shown={(f) => formShows(root.current, f)} />
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
    </Box>
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
          // Field messages show under their inputs only (issue 35): the provider toasts none of them.
          meta: { fieldErrorsShown: true },
          // Field errors go to their inputs (the wizard opens the first wrong step); anything else to the block.
          onError: (e: unknown) => setError(e),
        }}
      >
        <Title title={translate(`${T}.create_title`)} />
        {/* The shell's top bar shows no title: the page names itself ("Nuovo utente"). */}
        <ListTitle>{translate(`${T}.create_title`)}</ListTitle>
        <Card sx={{ mt: 2 }}>
          <CardContent>
            <Form defaultValues={defaults} warnWhenUnsavedChanges={false} noValidate disableInvalidFormNotification>
              <Wizard kind={kind} error={error} />
            </Form>
          </CardContent>
        </Card>
      </CreateBase>
    </ResourceContextProvider>
  );
}
