import { lazyScreen } from '../../components/lazyScreen';

/** The dashboard at / (App.tsx's `dashboard`): its code, statistics and chart load after signing in. */
export const Dashboard = lazyScreen(() => import('./Dashboard'), 'Dashboard');
