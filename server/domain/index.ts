import { createRegistry, type Registry } from '../engine/index.ts'
import { register as accounts } from './accounts/register.ts'
import { register as analytics } from './analytics/register.ts'
import { register as billing } from './billing/register.ts'
import { register as blInstructions } from './blInstructions/register.ts'
import { register as clients } from './clients/register.ts'
import { register as dcsa } from './dcsa/register.ts'
import { register as enterprises } from './enterprises/register.ts'
import { register as fba } from './fba/register.ts'
import { register as im } from './im/register.ts'
import { register as inquiries } from './inquiries/register.ts'
import { register as letters } from './letters/register.ts'
import { register as membership } from './membership/register.ts'
import { register as messaging } from './messaging/register.ts'
import { register as operating } from './operating/register.ts'
import { register as orders } from './orders/register.ts'
import { register as push } from './push/register.ts'
import { register as quotes } from './quotes/register.ts'
import { register as reference } from './reference/register.ts'
import { register as roles } from './roles/register.ts'
import { register as schedules } from './schedules/register.ts'
import { register as spa } from './spa/register.ts'
import { register as tracking } from './tracking/register.ts'
import { register as watch } from './watch/register.ts'
import { register as webhooks } from './webhooks/register.ts'

/**
 * The application's engine registry: every area that adds behaviour to the engine registers it here, at
 * start (STYLE §7). A new area is its folder with a `register(engine)` and one line below; the engine
 * itself is never edited for it. The engine refuses to start if the YAML names something nobody registered.
 */
export function domainRegistry(): Registry {
  const registry = createRegistry()
  for (const register of [
    accounts,
    analytics,
    billing,
    blInstructions,
    clients,
    dcsa,
    enterprises,
    fba,
    im,
    inquiries,
    letters,
    membership,
    messaging,
    operating,
    orders,
    push,
    quotes,
    reference,
    roles,
    schedules,
    spa,
    tracking,
    watch,
    webhooks,
  ])
    register(registry)
  return registry
}
