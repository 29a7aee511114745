export { api, request, sessionPayload, upload, UPLOAD_TIMEOUT_MS, type Payload, type RequestOptions, type UploadOptions } from './client';
export { ApiError, isApiError, type ApiErrorKind } from './errors';
export { httpStatusMessage } from './status';
export { call, routeOf, upload as uploadTo, type Answer, type EndpointName, type Input } from './endpoints';
