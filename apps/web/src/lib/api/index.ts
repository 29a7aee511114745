export { sessionPayload, type Payload } from './client';
export { ApiError, isApiError, type ApiErrorKind } from './errors';
export { call, routeOf, upload as uploadTo, type Answer, type EndpointName, type Input } from './endpoints';
