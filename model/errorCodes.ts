/**
 * The error catalogue (SPEC §8): every code the server answers with, its HTTP status and its locale key
 * (locales/<lang>/error.json). Plain data shared by the server (server/http/errors.ts, which says how the
 * statuses are chosen) and the generator's OpenAPI document, so the two cannot list different codes.
 */
export const ERROR_CODES = {
  // Transport level
  '401': { http: 401, key: 'error.401' },
  '404': { http: 404, key: 'error.404' },
  '413': { http: 413, key: 'error.413' },
  '429': { http: 429, key: 'error.429' },
  // ours (issue #29): the database is out of reach for a moment (a restart, a failover); retry shortly
  '503': { http: 503, key: 'error.503' },
  validation: { http: 400, key: 'error.validation' },
  // SPEC §8 server codes
  '100000': { http: 200, key: 'error.100000' },
  '100001': { http: 200, key: 'error.100001' },
  '100002': { http: 200, key: 'error.100002' },
  '110000': { http: 200, key: 'error.110000' },
  '110001': { http: 200, key: 'error.110001' }, // ours (issue #25): the host's tenant is suspended by the platform
  '200000': { http: 500, key: 'error.200000' },
  '210000': { http: 200, key: 'error.210000' },
  '220000': { http: 403, key: 'error.220000' },
  '300001': { http: 200, key: 'error.300001' },
  '300002': { http: 200, key: 'error.300002' },
  '300003': { http: 200, key: 'error.300003' },
  '300004': { http: 200, key: 'error.300004' },
  '300005': { http: 200, key: 'error.300005' },
  '300006': { http: 200, key: 'error.300006' },
  '300007': { http: 200, key: 'error.300007' },
  '300008': { http: 200, key: 'error.300008' },
  '300009': { http: 200, key: 'error.300009' },
  '300010': { http: 200, key: 'error.300010' },
  '300011': { http: 200, key: 'error.300011' },
  '310000': { http: 200, key: 'error.310000' },
  '310001': { http: 200, key: 'error.310001' },
  '310002': { http: 200, key: 'error.310002' },
  '310003': { http: 200, key: 'error.310003' },
  '310004': { http: 200, key: 'error.310004' },
  '310005': { http: 200, key: 'error.310005' },
  '310008': { http: 200, key: 'error.310008' },
  '310009': { http: 200, key: 'error.310009' },
  '310010': { http: 200, key: 'error.310010' },
  '320000': { http: 200, key: 'error.320000' },
  '320001': { http: 200, key: 'error.320001' },
  '320002': { http: 200, key: 'error.320002' },
  '320003': { http: 200, key: 'error.320003' }, // ours (issue #23, SPEC §9 ETD warning): past the edit limit
  '320004': { http: 200, key: 'error.320004' }, // ours (issue #25): a quote is sent only once a second operator approved it
  '320005': { http: 200, key: 'error.320005' }, // ours (issue #25): quotes are not reviewed on this site, send it directly
  '320006': { http: 200, key: 'error.320006' }, // ours (issue #25): a quote's reviewer is not its author or its submitter
  '330000': { http: 200, key: 'error.330000' },
  '330001': { http: 200, key: 'error.330001' },
  '330002': { http: 200, key: 'error.330002' },
  '330003': { http: 200, key: 'error.330003' },
  '340000': { http: 200, key: 'error.340000' },
  // Ours (SPEC §8 client messages): "freight rate has expired"; a visitor's daily rate queries used up.
  '340001': { http: 200, key: 'error.340001' },
  '340002': { http: 200, key: 'error.340002' },
  '350000': { http: 200, key: 'error.350000' },
  '350001': { http: 200, key: 'error.350001' },
  '350002': { http: 200, key: 'error.350002' },
  '350003': { http: 200, key: 'error.350003' }, // ours (issue #21): the last administrator cannot unbind
  '360000': { http: 200, key: 'error.360000' },
  '360001': { http: 200, key: 'error.360001' },
  '360002': { http: 200, key: 'error.360002' },
  // Ours (issue #24, SPEC §4 bills / §8 client messages): a confirmed bill confirmed again; an unprinted bill downloaded.
  '360003': { http: 200, key: 'error.360003' },
  '360004': { http: 200, key: 'error.360004' },
  // Ours (issue #26): the enterprise's FBA service is not enabled; it was asked for already.
  '360005': { http: 200, key: 'error.360005' },
  '360006': { http: 200, key: 'error.360006' },
  // Ours (issue #27, chat): a closed conversation refuses messages; a used or stale chat link; the chat filter's
  // refusal; an unknown agent; messages sent faster than the per-user limit.
  '381001': { http: 200, key: 'error.381001' },
  '381002': { http: 200, key: 'error.381002' },
  '381003': { http: 200, key: 'error.381003' },
  '381004': { http: 200, key: 'error.381004' },
  '381005': { http: 200, key: 'error.381005' },
  '370000': { http: 200, key: 'error.370000' },
  '370001': { http: 200, key: 'error.370001' },
  '400001': { http: 200, key: 'error.400001' },
  '400002': { http: 200, key: 'error.400002' },
  '400003': { http: 200, key: 'error.400003' },
  '400005': { http: 200, key: 'error.400005' },
  '400006': { http: 200, key: 'error.400006' },
  '400007': { http: 200, key: 'error.400007' },
  '400010': { http: 200, key: 'error.400010' },
} as const satisfies Record<string, { http: number; key: `error.${string}` }>
