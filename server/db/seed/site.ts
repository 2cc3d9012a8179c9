import type { Kysely } from 'kysely'
import { syncEntityTables } from '../../engine/storage.ts'
import type { Manifest } from '../../manifest.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'

/**
 * The public site's seeded content: the agreements of SPEC §3 (serviceAgreementList /
 * privacyAgreementList, one entry per language, rich text), the home page's
 * background images (at most 3, 1920×1080, drawn as small SVGs in public/site/) and each tenant's featured
 * lanes (schemas/specialRoute.yaml). Deterministic.
 */

type Lang = 'zh' | 'en' | 'ja' | 'es'

export interface AgreementEntry {
  language: Lang
  title: string
  content: string
}

interface Names {
  zh: string
  en: string
}

/** An agreement's rich text (SPEC §3): one paragraph per line given, escaped. */
const paragraphs = (...lines: string[]) =>
  lines.map((line) => `<p>${line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p>`).join('')

export function serviceAgreements(company: Names): AgreementEntry[] {
  return [
    {
      language: 'zh',
      title: '服务协议',
      content: paragraphs(
        `本协议由您与${company.zh}（以下简称"本公司"）就您使用本网站在线订舱、询价、跟踪及相关服务订立。注册或使用本网站即表示您已阅读并同意本协议。`,
        '一、服务内容。本公司作为货运代理人，根据您的委托安排海运、空运、铁路、陆运及跨境电商物流，并代为办理订舱、报关、仓储、保险等事宜。网站所示运价为参考价格，以订舱确认时的报价为准。',
        '二、您的义务。您应如实申报货物品名、数量、重量、体积、危险品属性及收发货人信息，并保证货物符合起运地、中转地和目的地的法律法规。因申报不实产生的费用、罚款和损失由您承担。',
        '三、费用与结算。运费及杂费按确认的报价结算；目的港费用、滞箱费、仓储费等按实际发生收取。您应在账单约定期限内付款。',
        '四、责任限制。本公司对货物灭失或损坏的责任依照承运人提单条款及适用的国际公约确定；建议您为货物投保。因不可抗力、承运人原因或海关查验造成的延误，本公司不承担责任，但将协助您处理。',
        '五、账号安全。您应妥善保管账号和密码，通过您账号进行的操作视为您本人的操作。',
        '六、争议解决。本协议适用中华人民共和国法律；争议协商不成的，提交本公司所在地人民法院诉讼解决。',
      ),
    },
    {
      language: 'en',
      title: 'Service agreement',
      content: paragraphs(
        `This agreement is made between you and ${company.en} ("we") for your use of this website's online booking, rate inquiry, tracking and related services. By registering or using the website you confirm that you have read and accept it.`,
        '1. Services. As freight forwarder we arrange sea, air, rail, road and e-commerce transport on your instructions and handle booking, customs clearance, warehousing and insurance on your behalf. Rates shown on the website are indicative; the quotation confirmed at booking applies.',
        '2. Your obligations. You declare the description, quantity, weight, volume and any dangerous nature of the goods and the shipper and consignee details truthfully, and ensure the goods comply with the laws of the countries of origin, transit and destination. Costs, fines and losses caused by an incorrect declaration are yours.',
        '3. Charges and payment. Freight and surcharges are invoiced as quoted; destination charges, demurrage, detention and storage are charged as incurred. Invoices are payable within the agreed term.',
        "4. Liability. Our liability for loss of or damage to goods follows the carrier's bill of lading terms and the applicable international conventions; we recommend insuring your cargo. We are not liable for delays caused by force majeure, carriers or customs inspections, but will help you deal with them.",
        '5. Account security. Keep your user name and password safe; actions taken through your account are deemed yours.',
        "6. Disputes. This agreement is governed by the laws of the People's Republic of China; disputes not settled amicably go to the court at our registered office.",
      ),
    },
    {
      language: 'ja',
      title: 'サービス利用規約',
      content: paragraphs(
        `本規約は、お客様と${company.en}（以下「当社」）との間で、本ウェブサイトのオンライン予約、運賃照会、追跡その他のサービスの利用について定めるものです。登録または利用により本規約に同意したものとみなします。`,
        '1. サービス内容。当社はフォワーダーとして、お客様の指示に基づき海上・航空・鉄道・陸上・越境 EC 輸送を手配し、予約、通関、保管、保険を代行します。サイト上の運賃は参考価格であり、予約確認時の見積が適用されます。',
        '2. お客様の義務。貨物の品名、数量、重量、容積、危険品該当性、荷送人・荷受人情報を正確に申告し、出発地・経由地・仕向地の法令に適合することを保証してください。不正確な申告による費用・罰金・損害はお客様の負担となります。',
        '3. 料金と支払。運賃と付帯費用は見積どおり請求し、仕向地費用、デマレージ、ディテンション、保管料は実費で請求します。請求書は約定期日までにお支払いください。',
        '4. 責任の制限。貨物の滅失・損傷に対する当社の責任は、運送人の B/L 約款および適用される国際条約に従います。貨物保険への加入をお勧めします。不可抗力、運送人、税関検査による遅延について当社は責任を負いませんが、対応をお手伝いします。',
        '5. アカウントの安全。ユーザー名とパスワードを適切に管理してください。お客様のアカウントによる操作はお客様自身の操作とみなします。',
        '6. 紛争解決。本規約は中華人民共和国法に準拠し、協議で解決しない紛争は当社所在地の裁判所で解決します。',
      ),
    },
    {
      language: 'es',
      title: 'Acuerdo de servicio',
      content: paragraphs(
        `Este acuerdo se celebra entre usted y ${company.en} ("nosotros") para el uso de los servicios de reserva en línea, consulta de tarifas, seguimiento y servicios relacionados de este sitio web. Al registrarse o usar el sitio confirma que lo ha leído y lo acepta.`,
        '1. Servicios. Como transitario organizamos transporte marítimo, aéreo, ferroviario, por carretera y de comercio electrónico según sus instrucciones, y gestionamos en su nombre la reserva, el despacho de aduanas, el almacenaje y el seguro. Las tarifas del sitio son orientativas; se aplica la cotización confirmada en la reserva.',
        '2. Sus obligaciones. Usted declara con veracidad la descripción, cantidad, peso, volumen y peligrosidad de la mercancía y los datos del cargador y del destinatario, y garantiza que la mercancía cumple las leyes de los países de origen, tránsito y destino. Los costes, multas y pérdidas causados por una declaración incorrecta corren de su cuenta.',
        '3. Cargos y pago. El flete y los recargos se facturan según la cotización; los gastos en destino, demoras, detención y almacenaje se cobran según se produzcan. Las facturas se pagan en el plazo acordado.',
        '4. Responsabilidad. Nuestra responsabilidad por pérdida o daño de la mercancía se rige por las condiciones del conocimiento de embarque del transportista y los convenios internacionales aplicables; le recomendamos asegurar su carga. No respondemos de retrasos por fuerza mayor, transportistas o inspecciones aduaneras, pero le ayudaremos a gestionarlos.',
        '5. Seguridad de la cuenta. Custodie su usuario y contraseña; las acciones realizadas con su cuenta se consideran suyas.',
        '6. Controversias. Este acuerdo se rige por las leyes de la República Popular China; las controversias no resueltas amistosamente se someten al tribunal de nuestro domicilio social.',
      ),
    },
  ]
}

export function privacyAgreements(company: Names, mail: string): AgreementEntry[] {
  return [
    {
      language: 'zh',
      title: '隐私政策',
      content: paragraphs(
        `${company.zh}重视您的个人信息保护。本政策说明我们在您使用本网站时收集哪些信息、如何使用以及您享有的权利。`,
        '一、我们收集的信息。注册时的用户名、手机号、邮箱；企业认证时的企业名称、统一社会信用代码等资料；订舱和询价中的收发货人、货物与运输信息；以及访问日志、设备和浏览器信息。',
        '二、信息的使用。用于提供订舱、报关、运输、跟踪、账单与客户服务；向承运人、报关行、仓库、保险公司和目的港代理提供完成运输所必需的信息；在您同意时发送运价和服务通知。',
        '三、信息的存储与保护。信息存储于中华人民共和国境内的服务器，采用加密传输、访问控制和日志审计等措施保护；法律法规要求以外，我们仅在实现目的所需的期限内保存。',
        '四、您的权利。您可以在个人中心查询、更正您的信息，注销账号，或撤回营销通知的同意。',
        `五、联系我们。如对本政策有任何疑问，请发送邮件至 ${mail}。`,
      ),
    },
    {
      language: 'en',
      title: 'Privacy policy',
      content: paragraphs(
        `${company.en} takes the protection of your personal information seriously. This policy explains what we collect when you use this website, how we use it and what rights you have.`,
        '1. What we collect. Your user name, mobile number and e-mail when you register; company name, registration number and certificates when you certify your enterprise; shipper, consignee, cargo and transport details in bookings and inquiries; and access logs, device and browser information.',
        '2. How we use it. To provide booking, customs clearance, transport, tracking, billing and customer service; to give carriers, customs brokers, warehouses, insurers and destination agents what they need to move your cargo; and, with your consent, to send rate and service notices.',
        "3. Storage and protection. Data is stored on servers in the People's Republic of China and protected by encrypted transport, access control and audit logs; unless the law requires otherwise, we keep it only as long as its purpose needs.",
        '4. Your rights. You can view and correct your information in your profile, close your account, or withdraw consent to marketing notices.',
        `5. Contact. Questions about this policy: ${mail}.`,
      ),
    },
    {
      language: 'ja',
      title: 'プライバシーポリシー',
      content: paragraphs(
        `${company.en}はお客様の個人情報の保護を重視しています。本ポリシーでは、本ウェブサイトの利用時に収集する情報、その利用方法、お客様の権利について説明します。`,
        '1. 収集する情報。登録時のユーザー名、携帯電話番号、メールアドレス。企業認証時の企業名、統一社会信用コード等。予約・見積における荷送人、荷受人、貨物、輸送情報。アクセスログ、端末およびブラウザ情報。',
        '2. 利用目的。予約、通関、輸送、追跡、請求、カスタマーサービスの提供。運送人、通関業者、倉庫、保険会社、仕向地代理店への輸送に必要な情報の提供。同意いただいた場合の運賃・サービスのお知らせ。',
        '3. 保管と保護。データは中華人民共和国内のサーバーに保管し、暗号化通信、アクセス制御、監査ログで保護します。法令の定めがある場合を除き、目的に必要な期間のみ保管します。',
        '4. お客様の権利。個人情報の確認・訂正、アカウントの削除、マーケティング通知の同意撤回ができます。',
        `5. お問い合わせ。本ポリシーに関するご質問は ${mail} までお送りください。`,
      ),
    },
    {
      language: 'es',
      title: 'Política de privacidad',
      content: paragraphs(
        `${company.en} se toma en serio la protección de sus datos personales. Esta política explica qué datos recogemos cuando usa este sitio web, cómo los usamos y qué derechos tiene.`,
        '1. Qué recogemos. Su usuario, móvil y correo al registrarse; nombre de la empresa, número de registro y certificados al certificar su empresa; datos del cargador, destinatario, carga y transporte en reservas y consultas; y registros de acceso, dispositivo y navegador.',
        '2. Para qué los usamos. Para prestar reservas, despacho de aduanas, transporte, seguimiento, facturación y atención al cliente; para dar a transportistas, agentes de aduanas, almacenes, aseguradoras y agentes en destino lo necesario para mover su carga; y, con su consentimiento, para enviar avisos de tarifas y servicios.',
        '3. Conservación y protección. Los datos se guardan en servidores de la República Popular China, protegidos con cifrado en tránsito, control de acceso y registros de auditoría; salvo obligación legal, solo los conservamos el tiempo que su finalidad requiere.',
        '4. Sus derechos. Puede consultar y corregir sus datos en su perfil, cerrar su cuenta o retirar el consentimiento a los avisos comerciales.',
        `5. Contacto. Preguntas sobre esta política: ${mail}.`,
      ),
    },
  ]
}

/** The home page's hero images (public/site/*.svg): a container terminal, a ship at sea, a freighter aircraft. */
export const BACKGROUND_IMAGES = [
  { url: '/site/hero-terminal.svg' },
  { url: '/site/hero-ship.svg' },
  { url: '/site/hero-air.svg' },
]

interface Lane {
  pol: string
  pod: string
  containerLoadType: 'FCL' | 'LCL' | 'AIR' | 'RAILWAY' | 'TRUCK'
  carrier: string | null
  priceFrom: string
  currency: string
  transitDays: number
}

/** Each tenant's featured lanes, in the order its home page shows them. */
const LANES: Record<string, Lane[]> = {
  demo: [
    {
      pol: 'CNSHA',
      pod: 'USLAX',
      containerLoadType: 'FCL',
      carrier: 'COSU',
      priceFrom: '1850.00',
      currency: 'USD',
      transitDays: 14,
    },
    {
      pol: 'CNNGB',
      pod: 'NLRTM',
      containerLoadType: 'FCL',
      carrier: 'MAEU',
      priceFrom: '1420.00',
      currency: 'USD',
      transitDays: 30,
    },
    {
      pol: 'CNSHA',
      pod: 'DEHAM',
      containerLoadType: 'FCL',
      carrier: 'HLCU',
      priceFrom: '1480.00',
      currency: 'USD',
      transitDays: 32,
    },
    {
      pol: 'CNSZX',
      pod: 'SGSIN',
      containerLoadType: 'LCL',
      carrier: null,
      priceFrom: '18.00',
      currency: 'USD',
      transitDays: 6,
    },
    {
      pol: 'CNSHA',
      pod: 'USNYC',
      containerLoadType: 'AIR',
      carrier: 'MU',
      priceFrom: '4.60',
      currency: 'USD',
      transitDays: 3,
    },
    {
      pol: 'CNCKG',
      pod: 'DEHAM',
      containerLoadType: 'RAILWAY',
      carrier: null,
      priceFrom: '5200.00',
      currency: 'USD',
      transitDays: 18,
    },
    {
      pol: 'CNNGB',
      pod: 'AEJEA',
      containerLoadType: 'FCL',
      carrier: 'CMDU',
      priceFrom: '980.00',
      currency: 'USD',
      transitDays: 22,
    },
    {
      pol: 'CNSHA',
      pod: 'JPTYO',
      containerLoadType: 'LCL',
      carrier: null,
      priceFrom: '12.00',
      currency: 'USD',
      transitDays: 4,
    },
  ],
  acme: [
    {
      pol: 'CNSZX',
      pod: 'USLAX',
      containerLoadType: 'FCL',
      carrier: 'ONEY',
      priceFrom: '1790.00',
      currency: 'USD',
      transitDays: 15,
    },
    {
      pol: 'CNSZX',
      pod: 'GBFXT',
      containerLoadType: 'FCL',
      carrier: 'MSCU',
      priceFrom: '1390.00',
      currency: 'USD',
      transitDays: 28,
    },
    {
      pol: 'CNSZX',
      pod: 'AUSYD',
      containerLoadType: 'LCL',
      carrier: null,
      priceFrom: '22.00',
      currency: 'USD',
      transitDays: 14,
    },
    {
      pol: 'CNSZX',
      pod: 'SGSIN',
      containerLoadType: 'AIR',
      carrier: 'CZ',
      priceFrom: '2.30',
      currency: 'USD',
      transitDays: 2,
    },
  ],
}

export async function seedSpecialRoutes(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  await syncEntityTables(db, manifest)
  for (const [code, lanes] of Object.entries(LANES)) {
    const tenant = await db.selectFrom('tenant').select('id').where('code', '=', code).executeTakeFirst()
    if (!tenant) continue
    await withTenant(db, tenant.id, async (trx) => {
      const rows = lanes.map((lane, index) => ({
        tenant_id: tenant.id,
        pol: lane.pol,
        pod: lane.pod,
        container_load_type: lane.containerLoadType,
        carrier: lane.carrier,
        price_from: lane.priceFrom,
        currency: lane.currency,
        transit_days: lane.transitDays,
        sort: index + 1,
      }))
      await (trx as unknown as Kysely<Record<string, Record<string, unknown>>>)
        .insertInto('special_route')
        .values(rows)
        .execute()
    })
  }
}
