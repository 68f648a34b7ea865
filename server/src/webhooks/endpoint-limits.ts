/** An account's endpoints: enough for every system it feeds, few enough that one event cannot fan out without bound. */
export const MAX_ENDPOINTS = 20;
