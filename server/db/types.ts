import type { Generated } from 'kysely';
import type { RESOURCES } from '../../model/registry.js';
import type { RowOf } from '../../model/resource.js';

/**
 * Row types of every table. A declared resource's table is typed from its declaration (model/registry.ts,
 * `RowOf`); the others have one interface each here. Keep in step with server/migrations
 * (tests/api/declarations.test.ts checks the declared tables against the migrated columns).
 */
type Declared = (typeof RESOURCES)[number];
/** The tables of the resources whose routes are generated; hand-written resources keep their interfaces below. */
export type DeclaredTables = { [D in Declared as D['routes'] extends 'generated' ? D['table'] : never]: RowOf<D> };

export interface RoleTable {
  id: number;
  name: string;
}

export interface LanguageTable {
  id: Generated<number>;
  code: string;
  en: string;
  native: string | null;
}

export interface PriceCategoryTable {
  id: Generated<number>;
  name: string;
}

export interface CompanyTable {
  id: Generated<number>;
  legal_name: string;
  address: string | null;
  address_2: string | null;
  city: string | null;
  province: string | null;
  postal_code: string | null;
  country_id: number | null;
  language_id: number | null;
  phone: string | null;
  phone_2: string | null;
  domestic_email: string | null;
  international_email: string | null;
  fax: string | null;
  website_url: string | null;
  company_role_id: number;
  carrier_id: number | null;
  price_category_id: number | null;
  status_id: number;
  is_inbound: number;
  type: string;
  site_header_logo: string | null;
  logo: string | null;
  exp_category_id: number | null;
  std_category_id: number | null;
  increase_percent: string | null;
  decrease_percent: string | null;
  international_admin_fee: number | null;
  national_admin_fee: number | null;
  combo_cbm_ratio: number | null;
  combo_lm_ratio: number | null;
  visitor_price_multiplier: string | null;
  fuel_base_price: string | null;
  fuel_step: string | null;
  fuel_step_percent: string | null;
  fuel_max_percent: string | null;
  adr_surcharge_percent: string | null;
  taillift_fee: number | null;
  created_at: string;
  updated_at: string;
}

export interface UserTable {
  id: Generated<number>;
  role_id: number;
  support_role_id: number | null;
  company_id: number;
  language_id: number | null;
  title: string | null;
  first_name: string;
  last_name: string;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  country_id: number | null;
  phone: string | null;
  phone_2: string | null;
  email: string;
  password_hash: string;
  notes: string | null;
  status_id: number;
  support_skype: string | null;
  support_email: string | null;
  image: string | null;
  created_at: string;
  updated_at: string;
}

export interface AuthTokenTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: string;
  created_at: string;
  /** Set at issue, refreshed at most once a minute as the token is used (migration 0013). */
  last_used_at: string | null;
  /** The User-Agent of the sign-in (at most 512 characters). */
  user_agent: string | null;
  /** The address of the sign-in. */
  ip: string | null;
}
/** An uploaded file kept in the database (migration 0023, lib/fileStoreDb.ts). */
export interface StoredFileTable {
  area: string;
  name: string;
  /** bytes; a string from pg (int8) */
  size: number | string;
  created_at: string;
  /** epoch ms of the pending mark (lib/files.ts), null when settled; a string from pg (int8) */
  pending_since: number | string | null;
  data: Buffer;
}
/** An event of the live stream, kept a few minutes for `Last-Event-ID` (migration 0022, lib/liveEvents.ts). */
export interface LiveEventTable {
  id: Generated<number>;
  type: string;
  /** JSON text: the event's ids. */
  data: string;
  /** JSON text: who may see it (lib/liveEvents.ts `Audience`). */
  audience: string;
  created_at: string;
}
/** A company's API key (migration 0019, repositories/apiKeys.ts): only the SHA-256 of the key is kept. */
export interface ApiKeyTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  /** The key's start, shown in lists (`fpk_live_ab12`). */
  prefix: string;
  hash: string;
  /** Comma-separated scopes (model/apiKeys.ts). */
  scopes: string;
  created_by: number | null;
  created_by_name: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
/** A company's private calendar feed (migration 0030, docs/calendar-feed.md): no row = off; only the token's SHA-256. */
export interface CalendarFeedTable {
  id: Generated<number>;
  company_id: number;
  token_hash: string;
  created_by: number | null;
  created_by_name: string;
  created_at: string;
  last_fetched_at: string | null;
}
/** A company's webhook receiver (migration 0021, repositories/webhooks.ts): the secret signs deliveries, never answered after creation. */
export interface WebhookEndpointTable {
  id: Generated<number>;
  company_id: number;
  url: string;
  /** Comma-separated event types (model/webhooks.ts). */
  events: string;
  secret: string;
  lang: string;
  /** 'active' | 'failing' */
  status: string;
  created_by: number | null;
  created_by_name: string;
  created_at: string;
  failing_since: string | null;
}
/** One event for one endpoint (migration 0021), written in the change's transaction, sent by lib/webhooks/worker.ts. */
export interface WebhookDeliveryTable {
  id: Generated<number>;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  transport_request_id: number;
  ordering_key: string;
  payload: string;
  created_at: string;
  attempts: Generated<number>;
  first_attempt_at: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  delivered_at: string | null;
  gave_up_at: string | null;
  locked_until: string | null;
}
/** A browser a user has signed in from (migration 0011, lib/signInThrottle.ts). */
export interface DeviceTokenTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
}
export interface RateLimitTable {
  bucket: string;
  window_start: number | string;
  hits: number;
}
export interface SettingTable {
  key: string;
  value: string | null;
  public: number;
}

export interface CategoryTable {
  id: Generated<number>;
  company_id: number;
  code: string;
  rate_type: string;
  zone: string;
  description: string | null;
  created_at: string;
}
export interface RateSheetTable {
  id: Generated<number>;
  company_id: number;
  category_id: number;
  code: string;
  description: string | null;
  zone: string;
  rate_type: string;
  area: string;
  is_standard: number;
  validate_from: string;
  validate_to: string;
  file_path: string | null;
  file_name: string | null;
  created_at: string;
  updated_at: string;
}
type Bands = { p150: number | null; p300: number | null; p550: number | null; ps550: number | null; p1000: number | null };
export interface ExpressRateRowTable extends Bands {
  id: Generated<number>;
  rate_sheet_id: number;
  rate_code: string | null;
  carrier_zone: string | null;
  country: string | null;
  department: string | null;
  hub: string | null;
  province: string;
  leadtime: number | null;
  type_id: number;
}
export interface StandardRateRowTable {
  id: Generated<number>;
  rate_sheet_id: number;
  rate_code: string | null;
  country: string;
  zone_code: string;
  weight_from: string;
  weight_to: string;
  price: number;
  unit: string;
  minimum: number | null;
  leadtime: number | null;
}
export interface HubCostTable {
  id: Generated<number>;
  company_id: number;
  code: string;
  silver: number | null;
  gold: number | null;
}
export interface IslandZoneTable extends Bands {
  id: Generated<number>;
  company_id: number;
  island: string;
  special_zone: string | null;
  quintal_cost: number | null;
  multiplier: string | null;
  type_id: number;
}
export interface HubCodeTable {
  id: Generated<number>;
  company_id: number;
  code: string;
  hub: string;
}
export interface ExpressSpecialZoneTable {
  id: Generated<number>;
  company_id: number;
  province: string | null;
  city: string | null;
  postal_code: string | null;
}
export interface StandardSpecialZoneTable {
  id: Generated<number>;
  company_id: number;
  province: string | null;
  code: string;
  city: string | null;
  postal_code: string | null;
}
export interface NoPassageTable {
  id: Generated<number>;
  company_id: number;
  postal_code: string | null;
  city: string | null;
  cost: number | null;
  province: string | null;
  flow: string | null;
  special_zone: string | null;
  company_iso_2: string | null;
  code: string | null;
  rate_code: string | null;
  cost2: number | null;
  col_11: string | null;
}

/** pricing.md §8 (migration 0015): fixed in cents, percent as decimal text, country IT when the file leaves it empty. */
export interface PostalSurchargeTable {
  id: Generated<number>;
  company_id: number;
  country: string;
  postal_code: string;
  kind: string;
  flow: string | null;
  fixed: number | null;
  percent: string | null;
}

export interface PasswordResetTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  attempts: Generated<number>;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
  /** `code`: a 4-digit reset code (argon2 hash); `invite`: an invitation link's token (SHA-256), migration 0027. */
  kind: Generated<'code' | 'invite'>;
}
export interface ThrottleEventTable {
  id: Generated<number>;
  bucket: string;
  at: number | string;
}
/** Two-factor sign-in (migration 0014_mfa, docs/two-factor.md). */
export interface UserMfaTable {
  id: Generated<number>;
  user_id: number;
  secret: string;
  enabled_at: string | null;
  last_step: number | string | null;
  created_at: string;
  updated_at: string;
}
export interface MfaRecoveryCodeTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: string | null;
  created_at: string;
}
export interface MfaChallengeTable {
  id: Generated<number>;
  user_id: number;
  challenge_hash: string;
  purpose: string;
  remember: Generated<number>;
  attempts: Generated<number>;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
/** The audit log (migration 0012; docs/audit-log.md): only ever inserted. */
export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  user_id: number | null;
  user_name: string | null;
  user_role_id: number | null;
  company_id: number | null;
  company_name: string | null;
  tenant_id: number | null;
  target_company_id: number | null;
  action: string;
  resource: string;
  resource_id: number | null;
  changes: string | null;
  ip: string | null;
}
export interface AccessRequestTable {
  id: Generated<number>;
  status: Generated<string>;
  carrier_id: number | null;
  carrier_name: string;
  carrier_email: string;
  carrier_phone: string;
  carrier_city: string;
  carrier_country_id: number;
  carrier_language_id: number;
  carrier_postal_code: string;
  carrier_province: string;
  carrier_website_url: string;
  carrier_address: string;
  carrier_logo: string | null;
  user_first_name: string;
  user_last_name: string;
  user_email: string;
  user_phone: string;
  user_password_hash: string;
  created_company_id: number | null;
  created_user_id: number | null;
  reviewed_by: number | null;
  reviewed_at: string | null;
  created_at: string;
  updated_at: string;
}
export interface TicketCategoryTable {
  id: Generated<number>;
  name: string;
  /** The name per language (0025_reference_names; null: `name` shows). */
  it: string | null;
  en: string | null;
  fr: string | null;
}
export interface ProvinceTable {
  id: Generated<number>;
  sigla: string;
  name: string;
  region: string;
}
export interface MunicipalityTable {
  id: Generated<number>;
  name: string;
  province: string;
  postal_code: string | null;
  istat_code: string;
}
export interface MunicipalityPostalCodeTable {
  id: Generated<number>;
  municipality_id: number;
  postal_code: string;
}
export interface IslandPlaceTable {
  id: Generated<number>;
  island: string;
  city: string;
  province: string;
}
export type ChatSide = 'enduser' | 'carrier';
export interface TicketTable {
  id: Generated<number>;
  ticket_category_id: number | null;
  subject: string;
  status: 'open' | 'closed';
  enduser_company_id: number;
  enduser_user_id: number;
  carrier_company_id: number;
  created_at: string;
  last_message_at: string;
  closed_at: string | null;
  closed_by: number | null;
  /** The transport request the ticket is about (migration 0026), null for a general question. */
  transport_request_id: number | null;
}
export interface ChatMessageTable {
  id: Generated<number>;
  chat_id: number;
  sender_user_id: number | null;
  sender_name: string;
  sender_side: ChatSide;
  body: string;
  created_at: string;
  read_at: string | null;
}
export interface TransportRequestStatusTable {
  id: number;
  name: string;
  description: string;
}
export interface TransportRequestTable {
  id: Generated<number>;
  carrier_id: number;
  enduser_company_id: number | null;
  user_id: number | null;
  firstname: string | null;
  lastname: string | null;
  email: string | null;
  phone: string | null;
  visitor_company: string | null;
  transport_request_status_id: number;
  cost: number | null;
  admin_fees: number | null;
  notes: string | null;
  reason: string | null;
  contact: string | null;
  lang: string | null;
  zone: string | null;
  service: string | null;
  flow: string | null;
  island: string | null;
  service_class: string | null;
  calculation_ratio: string | null;
  lead_time: number | null;
  origin_country: string | null;
  origin_postal_code: string | null;
  origin_locality: string | null;
  origin_province: string | null;
  destination_country: string | null;
  destination_postal_code: string | null;
  destination_locality: string | null;
  destination_province: string | null;
  priced_on: string | null;
  /** The fuel surcharge it was priced with (pricing.md §7): month YYYY-MM, €/l, percent; null without one. */
  fuel_month: string | null;
  fuel_price: string | null;
  fuel_percent: string | null;
  created_on: string;
  created_at: string;
  /** When the goods were picked up (migration 0028, issue 36): set with the move to in transit. */
  picked_up_at: string | null;
  updated_at: string;
}
export interface ShipmentTable {
  id: Generated<number>;
  transport_request_id: number;
  position: number;
  transport_request_type_id: number;
  transport_class: string | null;
  shipper_reference: string;
  consignee_reference: string | null;
  /** The consignee's address for its status mail (migration 0020), optional. */
  consignee_email: string | null;
  adr: number;
  tail_lift: number;
  pickup_date: string | null;
  pickup_time_from: string | null;
  pickup_time_to: string | null;
  pickup_notes: string | null;
  delivery_date: string | null;
  delivery_time_from: string | null;
  delivery_time_to: string | null;
  delivery_notes: string | null;
}
export interface ShipmentAddressTable {
  id: Generated<number>;
  shipment_id: number;
  kind: 'pickup' | 'delivery';
  location_name: string;
  address: string;
  postal_code: string;
  city: string | null;
  province: string | null;
  country_id: number;
}
export interface ShipmentDetailTable {
  id: Generated<number>;
  shipment_id: number;
  position: number;
  shipment_type_id: number;
  pallet_weight: string | null;
  pallet_width: string | null;
  pallet_length: string | null;
  pallet_height: string | null;
  pallet_type: string | null;
  total_units: number | null;
  gross_weight: string | null;
  volume: string | null;
  volume_type: string | null;
  /** A pallet's SSCC (migration 0029, docs/pallet-labels.md): 18 digits, set at its labels' first print. */
  sscc: string | null;
}
/** A carrier's pallet label settings (migration 0029): its GS1 company prefix and its SSCC serial counter. */
export interface LabelSettingTable {
  company_id: number;
  gs1_company_prefix: string;
  last_serial: number;
  updated_at: string;
}
export interface TransportRequestDocumentTable {
  id: Generated<number>;
  transport_request_id: number;
  document_type_id: number;
  filename: string;
  stored_name: string;
  size: number;
  created_at: string;
}
/** A request's proof of delivery (migration 0028, issue 36, docs/proof-of-delivery.md): one per request. */
export interface TransportRequestPodTable {
  id: Generated<number>;
  transport_request_id: number;
  name: string;
  notes: string | null;
  kind: 'file' | 'signature';
  stored_name: string;
  content_type: string;
  bytes: number;
  width: number | null;
  height: number | null;
  delivered_at: string;
  created_by: number | null;
  created_at: string;
}
/** A change of a transport request as its timeline shows it (migration 0018, model/requestTimeline.ts). */
export interface TransportRequestEventTable {
  id: Generated<number>;
  transport_request_id: number;
  at: string;
  event: string;
  status_id: number;
  user_id: number | null;
  user_name: string | null;
  user_role: string;
  note: string | null;
}
/** A quote PDF the calculator issued, by its number (migration 0031, lib/quoteNumbers.ts). */
export interface IssuedQuoteTable {
  id: Generated<number>;
  number: string;
  year: number;
  seq: number;
  company_id: number | null;
  user_id: number | null;
  carrier_id: number | null;
  created_at: string;
  /** cents: the lowest total the quote offered (SILVER for an express one, the total of a standard one) */
  total: number | null;
  valid_to: string | null;
  inputs_hash: string;
}
export interface StatisticsCacheTable {
  scope: string;
  payload: string;
  computed_at: number | string;
}
/** A user's in-app notification of a request's event (migration 0020, repositories/notifications.ts). */
export interface NotificationTable {
  id: Generated<number>;
  user_id: number;
  transport_request_id: number;
  /** the timeline entry it tells of (transport_request_events.id) */
  event_id: number;
  event: string;
  status_id: number;
  created_at: string;
  read_at: string | null;
}
/** A status for which a carrier switched its consignees' mail off (migration 0020); no row: on. */
export interface ConsigneeMailOffTable {
  id: Generated<number>;
  company_id: number;
  status_id: number;
}
/** Requests per carrier, end-user company (0: a visitor's) and status, kept by triggers (migration 0009). */
export interface TransportRequestCountTable {
  carrier_id: number;
  enduser_company_id: number;
  transport_request_status_id: number;
  n: number | string;
}

export interface DB extends DeclaredTables {
  user_roles: RoleTable;
  company_roles: RoleTable;
  support_roles: RoleTable;
  languages: LanguageTable;
  price_categories: PriceCategoryTable;
  companies: CompanyTable;
  users: UserTable;
  auth_tokens: AuthTokenTable;
  rate_limits: RateLimitTable;
  settings: SettingTable;
  categories: CategoryTable;
  rate_sheets: RateSheetTable;
  express_rate_rows: ExpressRateRowTable;
  standard_rate_rows: StandardRateRowTable;
  express_hub_costs: HubCostTable;
  express_island_zones: IslandZoneTable;
  express_hub_codes: HubCodeTable;
  express_special_zones: ExpressSpecialZoneTable;
  standard_special_zones: StandardSpecialZoneTable;
  standard_no_passage: NoPassageTable;
  postal_surcharges: PostalSurchargeTable;
  password_resets: PasswordResetTable;
  throttle_events: ThrottleEventTable;
  device_tokens: DeviceTokenTable;
  user_mfa: UserMfaTable;
  mfa_recovery_codes: MfaRecoveryCodeTable;
  mfa_challenges: MfaChallengeTable;
  access_requests: AccessRequestTable;
  audit_log: AuditLogTable;
  api_keys: ApiKeyTable;
  calendar_feeds: CalendarFeedTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  live_events: LiveEventTable;
  stored_files: StoredFileTable;
  ticket_categories: TicketCategoryTable;
  provinces: ProvinceTable;
  municipalities: MunicipalityTable;
  municipality_postal_codes: MunicipalityPostalCodeTable;
  island_places: IslandPlaceTable;
  tickets: TicketTable;
  chat_messages: ChatMessageTable;
  transport_request_statuses: TransportRequestStatusTable;
  transport_requests: TransportRequestTable;
  shipments: ShipmentTable;
  shipment_addresses: ShipmentAddressTable;
  shipment_details: ShipmentDetailTable;
  label_settings: LabelSettingTable;
  transport_request_documents: TransportRequestDocumentTable;
  transport_request_pods: TransportRequestPodTable;
  transport_request_events: TransportRequestEventTable;
  issued_quotes: IssuedQuoteTable;
  notifications: NotificationTable;
  consignee_mail_off: ConsigneeMailOffTable;
  statistics_cache: StatisticsCacheTable;
  transport_request_counts: TransportRequestCountTable;
}
