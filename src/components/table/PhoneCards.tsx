import { Children, cloneElement, Fragment, isValidElement, useEffect, useRef, type ReactElement, type ReactNode } from 'react';
import { DataTable, useResourceContext, useTranslateLabel, type DataTableProps, type RaRecord } from 'react-admin';
import { Box, type Theme } from '@mui/material';
import type { SystemStyleObject } from '@mui/system';

/**
 * Tables as stacked cards on a phone (issue 35): below the `sm` breakpoint (576 px) each row of a table
 * whose cells carry `data-label` becomes a card, one "label  value" line per column, instead of a table
 * wider than the screen that scrolled sideways (the tariff tables were 1 035–1 103 px, the rate sheets' actions
 * off the edge). The DOM stays a table (rows, cells, their texts, row clicks and checkboxes work as on a
 * desktop); only its layout changes, and a desktop sees the table as before.
 * - the first cell is the card's title (bold, no label);
 * - the row's checkbox (bulk selection) sits at the card's top left, the actions cell (`data-actions`) at its
 *   top right, without a label;
 * - the header row is not shown (each value carries its label); sorting stays a desktop's.
 */
export const stackedOnPhone = (t: Theme): SystemStyleObject<Theme> => ({
  [t.breakpoints.down('sm')]: {
    '& table, & tbody': { display: 'block', width: '100%', minWidth: 0 },
    '& thead': { display: 'none' },
    '& tbody > tr': {
      display: 'flex',
      flexDirection: 'column',
      position: 'relative',
      py: 1,
      px: 1.5,
      borderBottom: 1,
      borderColor: 'divider',
    },
    '& tbody > tr > td': {
      display: 'flex',
      // (MUI's right-aligned cells reverse their row: the label stays first)
      flexDirection: 'row',
      justifyContent: 'space-between',
      alignItems: 'baseline',
      gap: 2,
      border: 0,
      py: 0.25,
      px: 0,
      textAlign: 'right',
      whiteSpace: 'normal',
      overflowWrap: 'anywhere',
      // the desktop's sticky actions column is a normal cell here
      position: 'static',
      bgcolor: 'transparent',
      backgroundImage: 'none',
    },
    '& tbody > tr > td > *': { minWidth: 0 },
    '& tbody > tr > td[data-label]::before': { content: 'attr(data-label)' },
    // (a cell without a label has no ::before: its content stays `normal`, unless `phoneColumnLabels` gives one)
    '& tbody > tr > td::before': {
      textAlign: 'left',
      color: 'text.secondary',
      fontWeight: 500,
      flexShrink: 0,
      maxWidth: '50%',
    },
    // The card's title: the first column's value, bold, without its label.
    '& tbody > tr > td:first-of-type:not(.MuiTableCell-paddingCheckbox), & tbody > tr > td.MuiTableCell-paddingCheckbox + td': {
      justifyContent: 'flex-start',
      textAlign: 'left',
      fontWeight: 600,
      pr: 5,
      '&::before': { display: 'none' },
    },
    // the title's text, whatever its field's own typography
    '& tbody > tr > td:first-of-type:not(.MuiTableCell-paddingCheckbox) > *, & tbody > tr > td.MuiTableCell-paddingCheckbox + td > *': { fontWeight: 600 },
    '& tbody > tr > td.MuiTableCell-paddingCheckbox': { position: 'absolute', left: 0, top: 0, width: 'auto', p: 0 },
    '& tbody > tr > td.MuiTableCell-paddingCheckbox + td': { pl: 4, minHeight: 34, alignItems: 'center' },
    // A cell holding an input (a picker): the label above, the input the card's width.
    '& tbody > tr > td:has(.MuiInputBase-root)': { flexDirection: 'column', alignItems: 'stretch', gap: 0.5, py: 0.75 },
    '& tbody > tr > td[data-actions]': { position: 'absolute', right: 4, top: 4, p: 0, '&::before': { display: 'none' } },
    // An empty list's single cell (e.g. "no rows") is not a card.
    '& tbody > tr > td[colspan]': { display: 'block', textAlign: 'left' },
  },
});

/**
 * Labels by column position, for a table whose cells cannot carry `data-label` (one `sx` instead of a prop on
 * every cell): `sx={[stackedOnPhone, phoneColumnLabels(['#', 'Peso (kg)', …])]}`. `title: false` keeps the
 * first column a labelled line (a row number is no title).
 */
export const phoneColumnLabels =
  (labels: string[], opts: { title?: boolean } = {}) =>
  (t: Theme): SystemStyleObject<Theme> => {
    // Built as a plain record, not spread into the returned object: TypeScript 7 gives up on the union such a
    // spread of `SystemStyleObject`s makes (TS2590).
    const rules: Record<string, SystemStyleObject<Theme>> = Object.fromEntries(
      labels.map((l, i) => [`& tbody > tr > td:nth-of-type(${i + 1})::before`, { content: JSON.stringify(l) }]),
    );
    if (opts.title === false)
      rules['& tbody > tr > td:first-of-type:not(.MuiTableCell-paddingCheckbox)'] = {
        justifyContent: 'space-between',
        textAlign: 'right',
        fontWeight: 'inherit',
        pr: 0,
        '&::before': { display: 'block' },
      };
    return { [t.breakpoints.down('sm')]: rules };
  };

/** The props that give a `<TableCell>` its label on a phone (`stackedOnPhone`). */
export const phoneLabel = (label: string) => ({ 'data-label': label });

/** An actions cell on a phone: the card's top right corner (`stackedOnPhone`). */
export const PHONE_ACTIONS = { 'data-actions': '1' } as const;

interface ColProps {
  source?: string;
  label?: ReactNode;
  sx?: { position?: string };
  children?: ReactNode;
}

/** The DataTable's columns, each with `data-label` (its header's text): the arrays and fragments lists build are walked. */
function useLabelledColumns(children: ReactNode): ReactNode {
  const translateLabel = useTranslateLabel();
  const resource = useResourceContext();
  const label = (el: ReactElement<ColProps>): string => {
    const { label: l, source } = el.props;
    if (l === false || l === null || (l !== undefined && typeof l !== 'string')) return '';
    return String(translateLabel({ label: l, resource, source }) ?? '');
  };
  const walk = (nodes: ReactNode): ReactNode =>
    Children.map(nodes, (child) => {
      if (!isValidElement<ColProps>(child)) return child;
      if (child.type === Fragment) return walk(child.props.children);
      // The row actions column (sticky on a desktop: stickyActions.ts) goes to the card's corner.
      const actions = child.props.sx?.position === 'sticky';
      return cloneElement(child, (actions ? PHONE_ACTIONS : phoneLabel(label(child))) as Partial<ColProps>);
    });
  return walk(children);
}

/**
 * react-admin's `<DataTable>` that is a list of cards on a phone (`stackedOnPhone`): the same props and
 * columns; each column's header text labels its value in the card.
 */
export function StackedDataTable<R extends RaRecord = any>({ children, sx, ...props }: DataTableProps<R>) {
  const columns = useLabelledColumns(children);
  const box = useRef<HTMLDivElement>(null);
  useRowCheckboxLabels(box);
  return (
    <Box ref={box} sx={{ display: 'contents' }}>
      <DataTable<R> {...props} sx={[stackedOnPhone, ...(Array.isArray(sx) ? sx : sx ? [sx] : [])]}>
        {columns}
      </DataTable>
    </Box>
  );
}

/**
 * react-admin's row checkbox hands its "Seleziona questa riga" to MUI 7's Checkbox as `aria-label`, which lands
 * on the checkbox's outer span, not on its input: axe finds an unlabelled input and a label where none is
 * allowed (serious, critical). Until react-admin passes it to the input, the label is moved there.
 */
function useRowCheckboxLabels(box: React.RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const root = box.current;
    if (!root) return;
    const fix = () => {
      for (const span of root.querySelectorAll<HTMLElement>('span.select-item[aria-label]')) {
        const input = span.querySelector('input');
        if (!input) continue;
        input.setAttribute('aria-label', span.getAttribute('aria-label')!);
        span.removeAttribute('aria-label');
      }
    };
    fix();
    const observer = new MutationObserver(fix);
    observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
    return () => observer.disconnect();
  }, [box]);
}
