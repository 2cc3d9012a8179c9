import { type Kysely, sql } from 'kysely'
import { syncEntityTables } from '../../engine/storage.ts'
import { messageFor } from '../../http/errors.ts'
import type { Manifest } from '../../manifest.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'

/**
 * The news centre of the demo tenant (and a little of acme's, so isolation has something to hide): company,
 * industry and policy news in Chinese, English and Japanese, some hot, some recommended, one draft and one
 * withdrawn item that the public site must not show. Deterministic: fixed texts and dates.
 */

type Category = 'company' | 'industry' | 'policy'
type Lang = 'zh' | 'en' | 'ja'

interface SeedArticle {
  category: Category
  /** Days before 2026-03-02 it was published. */
  daysAgo: number
  hot?: boolean
  recommended?: boolean
  status?: 'published' | 'draft' | 'withdrawn'
  tags: string[]
  source: string
  author: string
  title: string
  summary: string
  /** Paragraphs; one starting with "## " is a heading. */
  body: string[]
}

const BASE_DAY = Date.UTC(2026, 2, 2, 1, 30)

export const NEWS_TYPES: Record<Lang, Record<Category, string>> = {
  zh: { company: '公司新闻', industry: '行业动态', policy: '政策法规' },
  en: { company: 'Company news', industry: 'Industry news', policy: 'Policies & regulations' },
  ja: { company: '企業ニュース', industry: '業界動向', policy: '政策・法規' },
}

const ZH: SeedArticle[] = [
  {
    category: 'company',
    daysAgo: 3,
    hot: true,
    recommended: true,
    tags: ['ports', 'seaFreight'],
    source: '公司新闻中心',
    author: '市场部',
    title: '宁波梅山保税仓正式启用，新增 2 万平方米仓储能力',
    summary: '新仓库毗邻梅山港区，提供保税存储、分拨、贴标与集拼服务，可缩短出口货物进港时间 1 至 2 天。',
    body: [
      '3 月起，我司宁波梅山保税仓正式投入运营。仓库总面积约 2 万平方米，配备 24 个装卸月台和 WMS 仓储管理系统，支持客户在线查看库存与出入库记录。',
      '## 服务内容',
      '保税存储与出口集拼、跨境电商 FBA 头程分拨、托盘化与贴标、整箱拆拼，以及与码头之间的短驳运输。',
      '首批入驻客户主要来自家居、小家电和汽配行业。欢迎联系客服预约参观。',
    ],
  },
  {
    category: 'company',
    daysAgo: 12,
    tags: ['seaFreight'],
    source: '公司新闻中心',
    author: '拼箱产品部',
    title: '上海—汉堡每周直拼服务上线，开船后 30 天到港',
    summary: '新拼箱航线每周四截关，不经第三港中转，适合欧洲小批量补货客户。',
    body: [
      '为满足欧洲客户小批量、多频次的补货需求，我司推出上海至汉堡每周直拼服务，每周四截关、周六开船。',
      '货物在上海外高桥 CFS 统一装箱，全程不经第三港中转，平均开船后 30 天抵达汉堡，可在线订舱并实时跟踪。',
    ],
  },
  {
    category: 'company',
    daysAgo: 40,
    recommended: true,
    tags: ['customs'],
    source: '公司新闻中心',
    author: '关务部',
    title: '我司通过海关 AEO 高级认证复审',
    summary: 'AEO 高级认证企业在全球多个互认国家和地区享受更低查验率与优先通关。',
    body: [
      '近日，我司顺利通过海关 AEO 高级认证企业复审。',
      '作为高级认证企业，我们代理申报的货物可享受较低的查验率、优先办理通关手续，并在与中国签署 AEO 互认的国家和地区获得通关便利。',
    ],
  },
  {
    category: 'industry',
    daysAgo: 1,
    hot: true,
    tags: ['ports', 'market'],
    source: '航运市场周报',
    author: '研究部',
    title: '北欧港口拥堵加剧，鹿特丹与汉堡堆场利用率超过 90%',
    summary: '受转运货量集中和内陆运输运力不足影响，北欧主要港口等泊时间延长至 3 至 5 天。',
    body: [
      '近期北欧主要港口出现明显拥堵。鹿特丹、汉堡、安特卫普的堆场利用率均超过 90%，部分船舶等泊时间延长至 3 至 5 天。',
      '## 对货主的影响',
      '建议发往北欧的货物预留更长的运输时间，并关注船公司可能征收的拥堵附加费。我们将每周更新港口情况。',
    ],
  },
  {
    category: 'industry',
    daysAgo: 8,
    recommended: true,
    tags: ['market', 'seaFreight'],
    source: '航运市场周报',
    author: '研究部',
    title: 'SCFI 综合指数连续三周回落，欧线运价跌幅最大',
    summary: '上海出口集装箱运价指数（SCFI）本周报收下跌，欧洲航线运价环比下降约 6%。',
    body: [
      '上海航运交易所发布的上海出口集装箱运价指数（SCFI）本周继续回落，已连续三周下跌。',
      '其中欧洲航线跌幅最大，美西、美东航线相对平稳。分析认为，节后需求恢复偏慢、新船交付增加是运价走弱的主要原因。',
    ],
  },
  {
    category: 'industry',
    daysAgo: 26,
    tags: ['carriers', 'seaFreight'],
    source: '航运市场周报',
    author: '研究部',
    title: '航运联盟格局重塑一周年：Gemini 合作准班率领先',
    summary: '马士基与赫伯罗特组建的 Gemini 合作运营满一年，枢纽辐射网络的准班率保持在 90% 左右。',
    body: [
      '2025 年 2 月，马士基与赫伯罗特组建的 Gemini 合作开始运营，与 Premier 联盟以及 MSC 独立运营形成新的东西航线格局。',
      '一年来，Gemini 的枢纽辐射模式准班率领先，但部分直达港口改为支线中转，货主需关注中转时间。',
    ],
  },
  {
    category: 'policy',
    daysAgo: 5,
    hot: true,
    recommended: true,
    tags: ['customs', 'regulation'],
    source: '政策解读',
    author: '关务部',
    title: '欧盟 ICS2 海运申报全面实施：货代需提交分单级 ENS 数据',
    summary: '进口控制系统 ICS2 第三阶段已覆盖海运、公路和铁路，未按要求申报的货物将无法装船。',
    body: [
      '欧盟进口控制系统 ICS2 第三阶段要求海运货物在装船前提交完整的入境摘要申报（ENS）。',
      '## 需要准备的数据',
      '包括发货人和收货人完整名称地址、六位 HS 编码、准确的货物描述等。“general cargo”一类笼统描述将被拒绝。',
      '请客户在订舱时提供完整信息，我们将代为完成分单级申报。',
    ],
  },
  {
    category: 'policy',
    daysAgo: 15,
    tags: ['regulation', 'carriers'],
    source: '政策解读',
    author: '研究部',
    title: '欧盟航运碳排放交易（EU ETS）2026 年起按 100% 排放量清缴',
    summary: '船公司需为往返欧盟港口航次的全部排放购买配额，相关附加费或将上调。',
    body: [
      '根据欧盟排放交易体系（EU ETS）的分阶段安排，航运业 2024 年按 40%、2025 年按 70% 排放量清缴配额，2026 年起提高到 100%。',
      '多家船公司已公布新的 ETS 附加费标准，建议货主在询价时确认报价是否包含该项费用。',
    ],
  },
  {
    category: 'policy',
    daysAgo: 33,
    tags: ['regulation'],
    source: '政策解读',
    author: '研究部',
    title: 'IMO 碳强度指标（CII）评级：低评级船舶面临减速与调配',
    summary: '国际海事组织的 CII 评级要求持续收紧，部分船舶通过降速航行满足要求，影响航程时间。',
    body: [
      '自 2023 年起，国际海事组织（IMO）要求 5000 总吨以上船舶每年进行碳强度指标（CII）评级，评级标准逐年收紧。',
      '为达到要求，部分船公司采取降速航行，这可能使个别航线航程延长。',
    ],
  },
  {
    category: 'industry',
    daysAgo: 60,
    status: 'withdrawn',
    tags: ['market'],
    source: '航运市场周报',
    author: '研究部',
    title: '【已撤回】春节前运价预测（旧版）',
    summary: '该文已由新版替代。',
    body: ['本文已撤回。'],
  },
  {
    category: 'company',
    daysAgo: 0,
    status: 'draft',
    tags: ['airFreight'],
    source: '公司新闻中心',
    author: '市场部',
    title: '（草稿）浦东机场空运包机计划',
    summary: '尚未发布。',
    body: ['草稿内容。'],
  },
]

const EN: SeedArticle[] = [
  {
    category: 'company',
    daysAgo: 4,
    hot: true,
    recommended: true,
    tags: ['ports', 'seaFreight'],
    source: 'Company newsroom',
    author: 'Marketing',
    title: 'Our Ningbo Meishan bonded warehouse opens with 20,000 m² of space',
    summary:
      'The new warehouse next to Meishan terminal offers bonded storage, consolidation, labelling and FBA first-mile distribution.',
    body: [
      'Our bonded warehouse in Ningbo Meishan is now open. It offers about 20,000 square metres, 24 loading docks and a warehouse management system that lets customers see stock and movements online.',
      '## What we do there',
      'Bonded storage and export consolidation, FBA first-mile distribution, palletising and labelling, devanning and shuttle trucking to the terminal.',
      'Contact customer service to arrange a visit.',
    ],
  },
  {
    category: 'company',
    daysAgo: 11,
    tags: ['seaFreight'],
    source: 'Company newsroom',
    author: 'LCL products',
    title: 'New weekly direct LCL service Shanghai–Hamburg, 30 days port to port',
    summary:
      'Cut-off every Thursday, no transhipment at a third port: built for European customers who restock in small lots.',
    body: [
      'European customers increasingly restock in smaller, more frequent shipments. Our new direct LCL service from Shanghai to Hamburg closes every Thursday and sails on Saturday.',
      'Cargo is consolidated at our Waigaoqiao CFS and travels without transhipment, reaching Hamburg about 30 days after sailing. Book online and follow every milestone in tracking.',
    ],
  },
  {
    category: 'company',
    daysAgo: 38,
    recommended: true,
    tags: ['customs'],
    source: 'Company newsroom',
    author: 'Customs team',
    title: 'We renewed our AEO advanced certification with China Customs',
    summary:
      'AEO advanced status means fewer inspections and priority clearance in China and in the economies with mutual recognition.',
    body: [
      'We have passed China Customs’ review of our AEO advanced certification.',
      'Shipments we declare benefit from lower inspection rates and priority clearance, and from faster procedures in the economies that recognise China’s AEO programme.',
    ],
  },
  {
    category: 'industry',
    daysAgo: 2,
    hot: true,
    tags: ['ports', 'market'],
    source: 'Weekly market report',
    author: 'Research desk',
    title: 'Port congestion in Northern Europe: Rotterdam and Hamburg yards above 90%',
    summary:
      'Bunched arrivals and scarce inland capacity push berth waiting times at the main North European ports to three to five days.',
    body: [
      'Congestion is building at the main ports of Northern Europe. Yard utilisation at Rotterdam, Hamburg and Antwerp is above 90%, and some vessels wait three to five days for a berth.',
      '## What it means for shippers',
      'Plan extra transit time for cargo to Northern Europe and watch for congestion surcharges. We update our port situation report every week.',
    ],
  },
  {
    category: 'industry',
    daysAgo: 9,
    recommended: true,
    tags: ['market', 'seaFreight'],
    source: 'Weekly market report',
    author: 'Research desk',
    title: 'SCFI falls for a third straight week, led by Asia–Europe rates',
    summary:
      'The Shanghai Containerized Freight Index closed lower again; spot rates to North Europe fell about 6% week on week.',
    body: [
      'The Shanghai Containerized Freight Index (SCFI) published by the Shanghai Shipping Exchange fell for a third consecutive week.',
      'Asia–Europe spot rates led the decline while transpacific lanes held steady. Slow post-holiday demand and new vessel deliveries are weighing on rates.',
    ],
  },
  {
    category: 'industry',
    daysAgo: 27,
    tags: ['carriers', 'seaFreight'],
    source: 'Weekly market report',
    author: 'Research desk',
    title: 'One year of the new alliances: Gemini leads on schedule reliability',
    summary:
      'The Maersk and Hapag-Lloyd Gemini Cooperation has kept schedule reliability around 90% with its hub-and-spoke network.',
    body: [
      'The Gemini Cooperation of Maersk and Hapag-Lloyd started operating in February 2025, alongside the Premier Alliance and MSC’s stand-alone network.',
      'A year on, Gemini’s hub-and-spoke design leads on reliability, but some former direct calls are now served by feeders, so check transhipment times when you book.',
    ],
  },
  {
    category: 'policy',
    daysAgo: 6,
    hot: true,
    recommended: true,
    tags: ['customs', 'regulation'],
    source: 'Regulation briefing',
    author: 'Customs team',
    title: 'EU ICS2 for ocean freight: house-level ENS data is now mandatory',
    summary:
      'Release 3 of the EU Import Control System 2 covers sea, road and rail; cargo without a complete filing will not be loaded.',
    body: [
      'Release 3 of the EU Import Control System 2 (ICS2) requires a complete Entry Summary Declaration (ENS) before loading for sea cargo bound for or through the EU.',
      '## Data you need to give us',
      'Full names and addresses of shipper and consignee, six-digit HS codes and precise goods descriptions. Vague descriptions such as “general cargo” are rejected.',
      'Please provide complete data at booking; we file the house-level ENS for you.',
    ],
  },
  {
    category: 'policy',
    daysAgo: 16,
    tags: ['regulation', 'carriers'],
    source: 'Regulation briefing',
    author: 'Research desk',
    title: 'EU ETS for shipping reaches 100% of emissions in 2026',
    summary:
      'Carriers now surrender allowances for all emissions of voyages within the EU scope; ETS surcharges may rise.',
    body: [
      'Under the phase-in of the EU Emissions Trading System, shipping surrendered allowances for 40% of 2024 emissions and 70% of 2025 emissions; from 2026 the figure is 100%.',
      'Several carriers have published new ETS surcharges. When you ask for a quote, check whether it includes them.',
    ],
  },
  {
    category: 'policy',
    daysAgo: 34,
    tags: ['regulation'],
    source: 'Regulation briefing',
    author: 'Research desk',
    title: 'IMO Carbon Intensity Indicator: low-rated ships slow down',
    summary:
      'Tightening CII ratings lead some operators to slow steam, which can lengthen transit times on some loops.',
    body: [
      'Since 2023 the International Maritime Organization has required ships of 5,000 gross tonnage and above to be rated on their Carbon Intensity Indicator (CII) each year, with thresholds tightening annually.',
      'To stay compliant some carriers slow steam, which can add days to certain services.',
    ],
  },
]

const JA: SeedArticle[] = [
  {
    category: 'company',
    daysAgo: 4,
    hot: true,
    recommended: true,
    tags: ['ports', 'seaFreight'],
    source: '広報室',
    author: 'マーケティング部',
    title: '寧波・梅山保税倉庫が稼働開始　2万平方メートルの保管能力を追加',
    summary: '梅山ターミナルに隣接し、保税保管、混載、ラベル貼付、FBA向け一次配送に対応します。',
    body: [
      '当社の寧波・梅山保税倉庫が本格稼働しました。延床面積は約2万平方メートル、荷役バース24か所を備え、在庫と入出庫をオンラインで確認できます。',
      '## 主なサービス',
      '保税保管と輸出混載、FBA向け一次配送、パレタイズとラベル貼付、デバンニング、ターミナルへの横持ち輸送。',
      '見学をご希望の方はカスタマーサービスまでお問い合わせください。',
    ],
  },
  {
    category: 'company',
    daysAgo: 13,
    tags: ['seaFreight'],
    source: '広報室',
    author: 'LCL商品部',
    title: '上海－ハンブルク直行LCL（混載）サービスを毎週運航',
    summary: '毎週木曜カット、第三港での積み替えなし。欧州向けの小口補充に最適です。',
    body: [
      '欧州のお客様の小口・高頻度の補充ニーズに応え、上海発ハンブルク向け直行LCLサービスを開始しました。毎週木曜カット、土曜出航です。',
      '外高橋CFSで混載し、積み替えなしで出航後約30日でハンブルクに到着します。オンライン予約と追跡に対応しています。',
    ],
  },
  {
    category: 'company',
    daysAgo: 41,
    recommended: true,
    tags: ['customs'],
    source: '広報室',
    author: '通関部',
    title: '中国税関のAEO高級認証を更新しました',
    summary: 'AEO高級認証により、検査率の低減と優先通関、相互承認国・地域での通関円滑化が受けられます。',
    body: [
      '当社は中国税関によるAEO高級認証の再審査に合格しました。',
      '当社が申告する貨物は検査率が低く、優先的に通関手続きを受けられます。',
    ],
  },
  {
    category: 'industry',
    daysAgo: 2,
    hot: true,
    tags: ['ports', 'market'],
    source: '海運市況週報',
    author: '調査部',
    title: '北欧州の港湾混雑が深刻化　ロッテルダムとハンブルクのヤード使用率90%超',
    summary: '入港の集中と内陸輸送力の不足により、主要港での沖待ちが3～5日に延びています。',
    body: [
      '北欧州の主要港で混雑が続いています。ロッテルダム、ハンブルク、アントワープのヤード使用率はいずれも90%を超え、一部の本船は3～5日の沖待ちとなっています。',
      '## 荷主への影響',
      '北欧州向け貨物は輸送日数に余裕を持たせ、船会社の混雑サーチャージにご注意ください。',
    ],
  },
  {
    category: 'industry',
    daysAgo: 10,
    recommended: true,
    tags: ['market', 'seaFreight'],
    source: '海運市況週報',
    author: '調査部',
    title: 'SCFIが3週連続で下落　欧州航路の下げ幅が最大',
    summary: '上海輸出コンテナ運賃指数（SCFI）は今週も下落し、北欧州向けスポット運賃は前週比約6%下落しました。',
    body: [
      '上海航運交易所が発表する上海輸出コンテナ運賃指数（SCFI）は3週連続で下落しました。',
      '欧州航路の下げが目立つ一方、北米航路は横ばいです。需要回復の遅れと新造船の竣工が運賃を押し下げています。',
    ],
  },
  {
    category: 'industry',
    daysAgo: 28,
    tags: ['carriers', 'seaFreight'],
    source: '海運市況週報',
    author: '調査部',
    title: '新アライアンス体制から1年　Geminiが定時運航率で首位',
    summary: 'マースクとハパックロイドのGemini Cooperationは、ハブ＆スポーク網で定時性90%前後を維持しています。',
    body: [
      'マースクとハパックロイドによるGemini Cooperationは2025年2月に運航を開始し、Premier AllianceやMSCの単独運航と並ぶ新体制となりました。',
      '定時性は高い一方、一部の直航寄港がフィーダー接続に変わったため、積み替え日数をご確認ください。',
    ],
  },
  {
    category: 'policy',
    daysAgo: 6,
    hot: true,
    recommended: true,
    tags: ['customs', 'regulation'],
    source: '規制解説',
    author: '通関部',
    title: 'EU ICS2 海上輸送の申告が本格化　ハウスレベルのENSデータが必須に',
    summary: 'EU輸入管理システムICS2のリリース3は海上・道路・鉄路を対象とし、申告が不完全な貨物は船積みできません。',
    body: [
      'EU輸入管理システム（ICS2）リリース3では、EU向け海上貨物について船積み前に完全な積荷事前申告（ENS）が求められます。',
      '## 必要なデータ',
      '荷送人・荷受人の正式名称と住所、6桁のHSコード、具体的な品名が必要です。「general cargo」のような曖昧な品名は受理されません。',
    ],
  },
  {
    category: 'policy',
    daysAgo: 17,
    tags: ['regulation', 'carriers'],
    source: '規制解説',
    author: '調査部',
    title: '海運のEU ETS、2026年から排出量の100%が対象に',
    summary: '船会社はEU関連航海の全排出量について排出枠を償却する必要があり、ETSサーチャージの上昇が見込まれます。',
    body: [
      'EU排出量取引制度（EU ETS）の段階導入により、海運は2024年排出量の40%、2025年の70%が対象でしたが、2026年からは100%となります。',
      '見積もり依頼の際は、ETSサーチャージが含まれているかご確認ください。',
    ],
  },
  {
    category: 'policy',
    daysAgo: 35,
    tags: ['regulation'],
    source: '規制解説',
    author: '調査部',
    title: 'IMOの燃費実績格付け（CII）　低評価船は減速航行へ',
    summary: 'CII基準の段階的な強化により、減速航行で対応する船社が増え、一部航路で輸送日数が延びています。',
    body: [
      '国際海事機関（IMO）は2023年から、総トン数5,000トン以上の船舶に燃費実績（CII）の年次格付けを義務付けています。',
      '基準を満たすために減速航行を行う船社もあり、一部のサービスで輸送日数が延びる可能性があります。',
    ],
  },
]

const ACME_EN: SeedArticle[] = [
  {
    category: 'company',
    daysAgo: 3,
    hot: true,
    recommended: true,
    tags: ['airFreight'],
    source: 'ACME newsroom',
    author: 'ACME Logistics',
    title: 'ACME opens an air freight desk at Frankfurt',
    summary: 'Acme’s own news, never shown on another tenant’s site.',
    body: ['ACME Logistics now handles air freight from its Frankfurt desk.'],
  },
  {
    category: 'industry',
    daysAgo: 7,
    tags: ['market'],
    source: 'ACME newsroom',
    author: 'ACME Logistics',
    title: 'ACME market note: transpacific rates steady',
    summary: 'A market note for ACME customers.',
    body: ['Transpacific rates were steady this week.'],
  },
]

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** The article body as the rich-text editor writes it. */
export function articleHtml(body: string[]): string {
  return body
    .map((p) => (p.startsWith('## ') ? `<h2>${escapeHtml(p.slice(3))}</h2>` : `<p>${escapeHtml(p)}</p>`))
    .join('')
}

const PLANS: { code: string; articles: Partial<Record<Lang, SeedArticle[]>> }[] = [
  { code: 'demo', articles: { zh: ZH, en: EN, ja: JA } },
  { code: 'acme', articles: { en: ACME_EN } },
]

export async function seedNews(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  await syncEntityTables(db, manifest)
  for (const plan of PLANS) {
    const tenant = await db.selectFrom('tenant').select('id').where('code', '=', plan.code).executeTakeFirst()
    if (!tenant) continue
    await withTenant(db, tenant.id, async (trx) => {
      for (const [language, articles] of Object.entries(plan.articles) as [Lang, SeedArticle[]][]) {
        const typeIds = {} as Record<Category, number>
        for (const category of ['company', 'industry', 'policy'] as const) {
          const { rows } = await sql<{ id: number }>`
            insert into information_type (tenant_id, name, language_type, category, description, status)
            values (${tenant.id}, ${NEWS_TYPES[language][category]}, ${language}, ${category}, ${''}, 'enabled')
            returning id`.execute(trx)
          typeIds[category] = rows[0]?.id as number
        }
        for (const article of articles) {
          const at = new Date(BASE_DAY - article.daysAgo * 86_400_000 - (article.hot ? 0 : 3_600_000))
          await sql`
            insert into information_item (tenant_id, title, information_type_id, language, summary, content, tags,
              author, source, hot, recommended, push_date, likes, status, created_at, updated_at)
            values (${tenant.id}, ${article.title}, ${typeIds[article.category]}, ${language}, ${article.summary},
              ${articleHtml(article.body)}, ${article.tags.map((tag) => messageFor(`news.tag.${tag}`, language)).join(', ')}, ${article.author}, ${article.source},
              ${article.hot ?? false}, ${article.recommended ?? false},
              ${article.status === 'draft' ? null : at.toISOString()}::timestamptz,
              ${article.status && article.status !== 'published' ? 0 : (article.title.length * 7) % 97},
              ${article.status ?? 'published'}, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz)`.execute(
            trx,
          )
        }
      }
    })
  }
}
