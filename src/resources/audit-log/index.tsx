import HistoryIcon from '@mui/icons-material/History';
import type { ResourceScreens } from '../types';
import { lazyScreen } from '../../components/lazyScreen';
import { auditMessages } from '../../components/audit/messages';

// The screen loads when first opened (src/components/lazyScreen.tsx).
const AuditLogList = lazyScreen(() => import('./AuditLogList'), 'AuditLogList');

/** /audit-log: the audit log list (admins and carriers; the path per role comes from the declaration). */
const auditLog: ResourceScreens = {
  list: AuditLogList,
  icon: HistoryIcon,
  messages: auditMessages,
};

export default auditLog;
