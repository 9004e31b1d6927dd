import type { Kind } from '../../model/roles';
import { apiRequest } from '../api/http';

/**
 * Support chat and tickets (calculator document §7), per side. Screens read under `['support', ...]` keys
 * and invalidate the ticket and unread queries after a message, a new ticket or a close.
 */

/** The two sides of a chat: the end-user company, and its carrier (carrier users and support share it). */
export type Side = 'enduser' | 'carrier';
export const sideOf = (kind: Kind | null | undefined): Side => (kind === 'enduser' ? 'enduser' : 'carrier');

export interface Ticket {
  id: number;
  chat_id: number;
  ticket_category_id: number | null;
  category_name: string | null;
  subject: string;
  status: 'open' | 'closed';
  enduser_company_id: number;
  enduser_company_name: string;
  enduser_user_id: number;
  enduser_user_name: string;
  created_at: string;
  last_message_at: string;
  closed_at: string | null;
  closed_by_name: string | null;
  last_message: string | null;
  last_sender_side: Side | null;
  last_sender_name: string | null;
  unread: number;
  /** the transport request the ticket is about (its number), null for a general question */
  transport_request_id?: number | null;
}

export interface ChatMessage {
  id: number;
  chat_id: number;
  sender_user_id: number | null;
  sender_name: string;
  sender_side: Side;
  body: string;
  created_at: string;
  is_mine: boolean;
}

export interface TicketPage {
  data: Ticket[];
  current_page: number;
  per_page: number;
  last_page: number;
  total: number;
}
export interface MessagesAnswer {
  data: ChatMessage[];
  ticket: Ticket;
  has_more: boolean;
  read_up_to: number;
}
export interface TicketQuery {
  page: number;
  per_page: number;
  status?: 'open' | 'closed';
  q?: string;
  /** only the tickets about this transport request */
  transport_request_id?: number;
}
export interface ReadInput {
  chat_id: number;
  after?: number;
  before?: number;
  limit?: number;
}

const base = (side: Side) => (side === 'enduser' ? '/enduser/chats' : '/company/chats');

export const chatMethods = () => ({
  chatTickets(side: Side, query: TicketQuery, signal?: AbortSignal) {
    return apiRequest<TicketPage>(side === 'enduser' ? '/enduser/chats/getTickets' : '/company/chats/getChatUsers', { query: { ...query }, signal });
  },
  chatMessages(side: Side, input: ReadInput, signal?: AbortSignal) {
    return side === 'enduser'
      ? apiRequest<MessagesAnswer>('/enduser/chats/getChatMessages', { query: { ...input }, signal })
      : apiRequest<MessagesAnswer>('/company/chats/getChatMessages', { method: 'POST', body: input, signal });
  },
  sendChatMessage(side: Side, chatId: number, message: string) {
    return apiRequest<{ message: string; data: ChatMessage }>(`${base(side)}/sendChatMessage`, { method: 'POST', body: { chat_id: chatId, message } });
  },
  closeChat(chatId: number) {
    return apiRequest<{ message: string; data: Ticket }>('/company/chats/closeChat', { method: 'POST', body: { chat_id: chatId } });
  },
  newTicket(body: { ticket_category_id: number; subject: string; message: string; transport_request_id?: number }) {
    return apiRequest<{ message: string; data: Ticket }>('/enduser/chats/newTicket', { method: 'POST', body });
  },
  chatUnread(side: Side) {
    return apiRequest<{ data: { messages: number; chats: number } }>(`${base(side)}/unread`);
  },
  async ticketCategories(): Promise<Array<{ id: number; name: string }>> {
    const answer = await apiRequest<any>('/visitor/ticket_categories');
    return Array.isArray(answer) ? answer : (answer?.data ?? []);
  },
});
