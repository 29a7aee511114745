export { api, request, sessionPayload, upload, UPLOAD_TIMEOUT_MS, type Payload, type RequestOptions, type UploadOptions } from './client';
export { ApiError, isApiError, type ApiErrorKind } from './errors';
export { httpStatusMessage } from './status';
