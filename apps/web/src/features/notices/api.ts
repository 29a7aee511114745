/** The reader's notices (contract: `noticesApi` in `@app/contract/api/notices`). */
import { useEndpoint, useEndpointMutation } from '../../components/list';
import type { Input } from '../../lib/api';

/** A page of the caller's notices, with its unread count. `poll`: refetch this often (ms) while the stream cannot be held. */
export const useNotices = (query: Input<'notices.list'>, poll?: number | false) => useEndpoint('notices.list', query, { refetchInterval: poll || false, placeholderData: (previous) => previous });
/** Marks some, or all, of the caller's notices read. */
export const useMarkRead = () => useEndpointMutation('notices.read', { invalidate: ['notices'], successMessage: false });
