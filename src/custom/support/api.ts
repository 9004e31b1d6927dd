import { useDataProvider } from 'react-admin';
import type { PortalDataProvider } from '../../dataProvider';

/** The chat calls and their types live in the data provider (dataProvider/chat.ts). */
export type { ChatMessage, MessagesAnswer, ReadInput, Side, Ticket, TicketPage, TicketQuery } from '../../dataProvider/chat';
export { sideOf } from '../../dataProvider/chat';

/** The data provider, whose named chat methods the support screens call (chatTickets, sendChatMessage...). */
export const useChat = () => useDataProvider<PortalDataProvider>();

/** Messages are plain text of at most this many characters (code points, as the server counts them). */
export const MESSAGE_MAX = 4000;
export const SUBJECT_MAX = 150;
export const textLength = (s: string) => [...s].length;
