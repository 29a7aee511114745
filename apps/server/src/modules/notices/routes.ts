import { noticesApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import { NoticeHub, setHub } from './hub';
import * as service from './service';

/**
 * The reader's notices (`/notice/*`): list, read, stream. The stream hub of this process lives in the
 * module's scope: it listens at the first stream and ends every stream before the server closes.
 */
export default defineRoutes(noticesApi, service, {
  setup: async (app) => {
    const hub = new NoticeHub(app.db);
    setHub(app.db, hub);
    app.addHook('preClose', async () => {
      await hub.stop();
    });
  },
});
