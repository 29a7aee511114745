/** The params module's calls (contract: `paramsApi` in `@app/contract/api/params`). */
import { refreshSiteTitle } from '../../lib/site-title';
import { useEndpoint, useEndpointMutation } from '../../components/list';

/** Every parameter with its type, bounds, labels, default and current value. */
export const useParamsList = () => useEndpoint('params.list', undefined, { refetchOnWindowFocus: false });

/** The changed values (button params:edit), all or nothing; field errors come back as `values.<key>`. */
/** Saves; the site title shown in the browser tab follows at once. */
export const useSaveParams = (successMessage: string) => useEndpointMutation('params.save', { invalidate: ['params'], successMessage, onSuccess: refreshSiteTitle });
