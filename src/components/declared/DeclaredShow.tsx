import { useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  Confirm,
  Loading,
  ShowBase,
  Title,
  useDelete,
  useGetRecordRepresentation,
  useNotify,
  usePermissions,
  useRecordContext,
  useShowContext,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import { Alert, Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import { referenceTextKey, type FieldDef } from '../../../model/fields';
import type { ResourceDecl } from '../../../model/resource';
import { canAccess } from '../../../model/permissions';
import type { Kind } from '../../../model/roles';
import { ActivitySection } from '../audit/ActivitySection';
import { FormDialog } from '../forms/FormDialog';
import { ListTitle } from '../table/ListTitle';
import { normalizeError } from '../feedback/errors';
import { DeclaredInputs } from './DeclaredInputs';
import { YesNoText, fieldComponentOf } from './DeclaredColumns';

/**
 * `#/<name>/<id>/show` of every generated resource (issue 34): the record's fields in words — references by
 * name, money, dates and months in the user's language, flags and booleans as Sì/No, choices by their label —
 * the owning company for an admin, then the record's "Attività" (the audit log's entries about it, the same
 * section as a company's or a user's page). Edit opens the list's modal; delete asks first and, when the
 * server refuses (409: other rows still refer to it), shows the server's message and stays.
 */
export function DeclaredShow({ decl, id }: { decl: ResourceDecl; /** The route's id unless given (tests). */ id?: Identifier }) {
  return (
    <ShowBase resource={decl.name} id={id}>
      <ShowBody decl={decl} />
    </ShowBase>
  );
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '';

/** A field's value in words, from the record in context. */
function FieldValue({ name, field }: { name: string; field: FieldDef }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const v = record?.[name];
  const shown = field.type === 'reference' ? (record?.[referenceTextKey(name)] ?? v) : v;
  if (isEmpty(shown)) return <span data-empty="1">{translate('declared.show.none')}</span>;
  if (field.type === 'image') return <Box component="img" src={String(v)} alt="" sx={{ maxHeight: 120, maxWidth: '100%', objectFit: 'contain' }} />;
  if (field.type === 'file')
    return (
      <a href={String(v)} target="_blank" rel="noreferrer">
        {String(v).split('/').pop()}
      </a>
    );
  const Component = field.type === 'flag' || field.type === 'boolean' ? YesNoText : fieldComponentOf(field);
  return <Component source={name} />;
}

function ShowBody({ decl }: { decl: ResourceDecl }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const notify = useNotify();
  const { permissions: kind } = usePermissions<Kind>();
  const { record, isPending, error } = useShowContext();
  const represent = useGetRecordRepresentation(decl.name);
  const [editing, setEditing] = useState(false);
  const [asking, setAsking] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const [deleteOne, { isPending: deleting }] = useDelete();
  if (error) {
    const { message } = normalizeError(error);
    return (
      <Alert severity="error" data-testid="show-error">
        {translate(message, { _: message })}
      </Alert>
    );
  }
  if (isPending || !record) return <Loading />;
  const resource = decl.name;
  const F = `resources.${resource}.fields`;
  const canEdit = canAccess(kind, resource, 'edit');
  const canDelete = canAccess(kind, resource, 'delete');
  const name = String(represent(record) ?? `#${record.id}`);
  const entries = Object.entries(decl.fields).filter(([, f]) => f.type !== 'password');
  const items: Array<{ key: string; label: string; value: React.ReactNode }> = [
    ...(decl.tenancy === 'company' && kind === 'admin'
      ? [{ key: 'company_name', label: translate('declared.company'), value: record.company_name ?? `#${record.company_id}` }]
      : []),
    ...entries.map(([n, f]) => ({ key: n, label: translate(`${F}.${n}`, { _: n }), value: <FieldValue name={n} field={f} /> })),
    ...(decl.timestamps && !('created_at' in decl.fields)
      ? [{ key: 'created_at', label: translate(`${F}.created_at`), value: <FieldValue name="created_at" field={{ type: 'date' }} /> }]
      : []),
  ];
  const remove = () =>
    deleteOne(
      resource,
      { id: record.id, previousData: record as RaRecord },
      {
        mutationMode: 'pessimistic',
        // The server's message ("Luogo eliminato") is the provider's toast.
        onSuccess: () => {
          setAsking(false);
          navigate(`/${resource}`);
        },
        // A 409 names what still refers to the row, in the user's language: said as it is.
        onError: (e) => {
          setAsking(false);
          const n = normalizeError(e);
          notify(n.message, { type: 'error', messageArgs: { _: n.message } });
        },
      },
    );
  return (
    <Box data-testid="declared-show" sx={{ minWidth: 0 }}>
      <Title title={name} />
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center', mb: 2 }}>
        <Button startIcon={<ArrowBackIcon />} onClick={() => navigate(`/${resource}`)} data-testid="back">
          {translate('declared.show.back')}
        </Button>
        <Box sx={{ flex: 1 }} />
        {canEdit ? (
          <Button ref={editButton} variant="contained" startIcon={<EditIcon />} onClick={() => setEditing(true)} data-testid="show-edit">
            {translate('ra.action.edit')}
          </Button>
        ) : null}
        {canDelete ? (
          <Button variant="outlined" color="error" startIcon={<DeleteIcon />} onClick={() => setAsking(true)} data-testid="show-delete">
            {translate('declared.delete.label')}
          </Button>
        ) : null}
      </Stack>
      <Box sx={{ mb: 2 }}>
        <ListTitle>{name}</ListTitle>
      </Box>
      <Card sx={{ mb: 2 }} data-testid="show-fields">
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
            {translate('declared.show.details')}
          </Typography>
          <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))' }, columnGap: 4, rowGap: 1.5, m: 0 }}>
            {items.map((i) => (
              <Box key={i.key} data-field={i.key} sx={{ minWidth: 0, gridColumn: decl.fields[i.key]?.multiline ? '1 / -1' : undefined }}>
                <Typography component="dt" variant="caption" color="text.secondary">
                  {i.label}
                </Typography>
                {/* body2: the text fields (react-admin's TextField) and the others (choices, names) read alike. */}
                <Typography
                  component="dd"
                  variant="body2"
                  sx={{ m: 0, overflowWrap: 'anywhere', whiteSpace: decl.fields[i.key]?.multiline ? 'pre-line' : undefined }}
                >
                  {i.value}
                </Typography>
              </Box>
            ))}
          </Box>
        </CardContent>
      </Card>
      <ActivitySection resource={decl.table} id={record.id} />
      {canEdit ? (
        <FormDialog
          resource={resource}
          mode="edit"
          id={record.id}
          open={editing}
          onClose={() => setEditing(false)}
          title={`resources.${resource}.edit_title`}
          returnFocusTo={editButton.current}
        >
          <DeclaredInputs fields={decl.fields} mode="edit" />
        </FormDialog>
      ) : null}
      <Confirm
        isOpen={asking}
        loading={deleting}
        title={translate('declared.delete.title', { name })}
        content={translate('declared.delete.content')}
        confirm={translate('declared.delete.confirm')}
        confirmColor="warning"
        onConfirm={remove}
        onClose={() => setAsking(false)}
      />
    </Box>
  );
}
