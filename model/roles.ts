/**
 * Roles as the server stores them (server.md §2) and the four kinds the interface works with.
 * Shared by the browser and the server: no imports from either side.
 */
export const USER_ROLES = {
  1: 'Admin',
  2: 'Admin Users',
  3: 'Carrier',
  4: 'Reseller',
  5: 'Carrier Users',
  6: 'Enduser',
  7: 'Support',
} as const;
export type UserRoleId = keyof typeof USER_ROLES;
export type UserRoleName = (typeof USER_ROLES)[UserRoleId];

export const COMPANY_ROLES = { 1: 'Admin', 2: 'Carrier', 3: 'Enduser company', 4: 'Reseller' } as const;
export const COMPANY_ROLE = { ADMIN: 1, CARRIER: 2, ENDUSER: 3, RESELLER: 4 } as const;
export const USER_ROLE = { ADMIN: 1, ADMIN_USERS: 2, CARRIER: 3, RESELLER: 4, CARRIER_USERS: 5, ENDUSER: 6, SUPPORT: 7 } as const;

export const SUPPORT_ROLES = { 1: 'First line', 2: 'Second line', 3: 'Supervisor' } as const;

/** `status_id` of companies and users: 1 active (may sign in), 0 deactivated (changeStatus; signed out, refused at sign-in). */
export const ACCOUNT_STATUSES = { 0: 'inactive', 1: 'active' } as const;

/** Which user roles fit a company of a given role (server.md §2). */
export const USER_ROLES_FOR_COMPANY_ROLE: Record<number, number[]> = {
  1: [1, 2],
  2: [3, 5, 7],
  3: [6],
  4: [4],
};

export type Kind = 'admin' | 'carrier' | 'enduser' | 'support';

/** The document's mapping of the stored role string: Admin and Admin Users → admin; Carrier, Reseller and Carrier Users → carrier. */
export function kindOfRoleName(role: string | null | undefined): Kind {
  switch (role) {
    case 'Admin':
    case 'Admin Users':
      return 'admin';
    case 'Carrier':
    case 'Reseller':
    case 'Carrier Users':
      return 'carrier';
    case 'Support':
      return 'support';
    default:
      return 'enduser';
  }
}

export function kindOfRoleId(roleId: number): Kind {
  return kindOfRoleName(USER_ROLES[roleId as UserRoleId]);
}
