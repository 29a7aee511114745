import { describe, expect, it } from 'vitest';
import { useSession } from '../session';
import { sessionPayload } from './client';

describe('sessionPayload (spec §7)', () => {
  it('adds key, institution id field and api_path for institutions', () => {
    useSession.setState({ token: 'k1', isAdmin: false, grade: 3, userId: 42 });
    expect(sessionPayload('/equipment/list', { page: 1 })).toEqual({ page: 1, key: 'k1', institution_id_3: 42, api_path: '/equipment/list' });
  });
  it('keeps a key already in the payload and sends no institution field for admins', () => {
    useSession.setState({ token: 'k1', isAdmin: true, grade: 0, userId: 1 });
    expect(sessionPayload('/member/get_member', { key: 'other' })).toEqual({ key: 'other', api_path: '/member/get_member' });
  });
  it('sends no institution field before the grade is known', () => {
    useSession.setState({ token: 'k1', isAdmin: false, grade: null, userId: 4 });
    expect(sessionPayload('/institution/get_institution_info')).toEqual({ key: 'k1', api_path: '/institution/get_institution_info' });
  });
});
