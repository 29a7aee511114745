import { type Lang, type NoticeRow, noticeLink, renderNotice } from '@app/contract';
import type { notices } from '../../db/schema';

export type StoredNotice = typeof notices.$inferSelect;

/** A stored notice as its reader gets it: title and body in the reader's language, its link. */
export function toNoticeRow(n: StoredNotice, lang: Lang): NoticeRow {
  const { title, body } = renderNotice(n.kind, n.params, lang);
  return {
    id: n.id,
    kind: n.kind,
    level: n.level,
    title,
    body,
    link: noticeLink(n.kind, n.params),
    created_at: n.createdAt.toISOString(),
    read_at: n.readAt ? n.readAt.toISOString() : null,
    thing_id: n.thingId,
  };
}

/** The key of a reader: `admin:<id>` or `institution:<id>`. */
export const readerKey = (kind: 'admin' | 'institution', id: number) => `${kind}:${id}`;
