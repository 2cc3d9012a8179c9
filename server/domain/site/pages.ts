import type { Language } from '../../http/errors.ts'

/**
 * The copy of the public service and about pages (SPEC §2 /productService … /CompanyPhilosophy): a
 * forwarder's own words, so it is tenant content served by the API rather than portal texts — the public
 * bundle stays small (bench/bundle.ts), and a tenant replaces any page through its site settings
 * (`sitePages.<language>.<page>`, same shape). `{{site}}` is the tenant's site name in the reader's language.
 */

export interface PageSection {
  heading: string
  text: string
}

export interface SitePage {
  title: string
  /** One or two sentences: the page's meta description too. */
  lead: string
  sections: PageSection[]
}

export const SITE_PAGES = ['services', 'fcl', 'lcl', 'air', 'fba', 'sea', 'insurance', 'about', 'philosophy'] as const
export type SitePageName = (typeof SITE_PAGES)[number]

type Copy = Record<SitePageName, SitePage>

const en: Copy = {
  services: {
    title: 'Products and services',
    lead: 'Door-to-door freight from China to the world: sea FCL and LCL, air, China–Europe rail, trucking, FBA first mile, customs clearance and cargo insurance, booked and tracked online.',
    sections: [
      {
        heading: 'Sea freight',
        text: 'Contract rates with the major carriers on every trade lane, weekly LCL consolidations from Shanghai, Ningbo and Shenzhen, and an operations desk that follows every booking to delivery.',
      },
      {
        heading: 'Air freight',
        text: 'Block space with leading airlines out of PVG, CAN and SZX, next-flight-out for urgent cargo, and dangerous-goods handling by certified staff.',
      },
      {
        heading: 'Customs, warehousing and distribution',
        text: 'Export and import clearance by our own licensed brokers, bonded and general warehouses for collection, labelling and palletising, and final-mile trucking.',
      },
      {
        heading: 'Online self-service',
        text: 'Compare rates, book, submit shipping instructions, download bills and track every container on {{site}} — around the clock.',
      },
    ],
  },
  fcl: {
    title: 'Sea freight FCL',
    lead: 'Full-container shipping in 20GP, 40GP, 40HQ, reefer and special equipment, with contract rates and guaranteed space on the main lanes.',
    sections: [
      {
        heading: 'Rates and space',
        text: 'Annual contracts with Maersk, MSC, CMA CGM, COSCO, Hapag-Lloyd and ONE give you published all-in rates and allocation in peak season.',
      },
      {
        heading: 'From factory to port',
        text: 'We arrange container pick-up, trucking, export customs and VGM, and send you the cut-off times for every sailing.',
      },
      {
        heading: 'Documents and release',
        text: 'Draft B/L for approval within 24 hours of loading, telex release or original bills, and destination delivery through our agent network.',
      },
    ],
  },
  lcl: {
    title: 'Sea freight LCL',
    lead: 'Less-than-container shipping priced per cubic metre or ton, with weekly direct consolidations to the main ports of Europe, America, Southeast Asia and the Middle East.',
    sections: [
      {
        heading: 'Direct consolidations',
        text: 'Our own CFS loads in Shanghai, Ningbo and Shenzhen mean fewer transhipments, less handling and more reliable transit times.',
      },
      {
        heading: 'Warehouse services',
        text: 'Receiving, measuring, labelling, palletising and photos at the CFS, with any discrepancy reported to you before loading.',
      },
      {
        heading: 'Clear pricing',
        text: 'Ocean freight per W/M plus origin and destination charges shown up front: no surprises on arrival.',
      },
    ],
  },
  air: {
    title: 'Air freight',
    lead: 'Airport-to-airport and door-to-door air cargo with guaranteed allocation, priced by chargeable weight (actual or volume weight at 1:6000).',
    sections: [
      {
        heading: 'Capacity',
        text: 'Weekly block space with Air China, China Eastern, China Southern and partner carriers, plus charters when the market is tight.',
      },
      {
        heading: 'Special cargo',
        text: 'Batteries, dangerous goods, temperature-controlled pharmaceuticals and oversized pieces, handled by IATA-certified staff.',
      },
      {
        heading: 'Tracking',
        text: 'Every air waybill is followed from acceptance to arrival; status updates reach you by mail and on {{site}}.',
      },
    ],
  },
  fba: {
    title: 'FBA shipping',
    lead: 'First-mile logistics to Amazon fulfilment centres in the US, Europe and Japan by sea, air or express, including customs clearance and delivery appointments.',
    sections: [
      {
        heading: 'Channels',
        text: 'Fast sea (Matson), standard sea, air and express channels, so you can balance cost against time to shelf.',
      },
      {
        heading: 'Compliance',
        text: 'FBA labels and carton checks in our warehouse, importer-of-record and duty-paid delivery where required.',
      },
      {
        heading: 'Appointments and proof of delivery',
        text: 'We book the warehouse appointment and send you the POD, so stock shows up in Seller Central on time.',
      },
    ],
  },
  sea: {
    title: 'Sea freight service',
    lead: 'One desk for every ocean shipment: FCL, LCL, reefer, out-of-gauge and breakbulk, from booking to delivery at destination.',
    sections: [
      {
        heading: 'Booking',
        text: 'Choose a rate online, book with your shipping details and receive the booking confirmation and container release the same day.',
      },
      {
        heading: 'Follow-up',
        text: 'Our operations team checks every milestone — gate-in, loading, departure, transhipment and arrival — and tells you as soon as anything changes.',
      },
      {
        heading: 'Destination',
        text: 'Agents in more than 80 countries handle import clearance and delivery, or hand over to your own broker.',
      },
    ],
  },
  insurance: {
    title: 'Cargo insurance',
    lead: 'All-risks cargo insurance for sea, air, rail and truck shipments with leading insurers, quoted as a percentage of the invoice value plus 10%.',
    sections: [
      {
        heading: 'Cover',
        text: 'Institute Cargo Clauses (A) all risks, war and strikes cover, warehouse-to-warehouse, for general and high-value goods.',
      },
      {
        heading: 'Simple to buy',
        text: 'Add insurance when you book: enter the value of the goods and the certificate is issued before departure.',
      },
      {
        heading: 'Claims',
        text: 'Report damage or loss to us; we collect the survey and documents and follow the claim with the insurer until it is paid.',
      },
    ],
  },
  about: {
    title: 'Who we are',
    lead: '{{site}} is an international freight forwarder serving exporters and importers with sea, air, rail and e-commerce logistics since 2008.',
    sections: [
      {
        heading: 'Our company',
        text: 'A licensed NVOCC and IATA agent with offices in Shanghai, Ningbo, Shenzhen and Qingdao and more than 300 logistics professionals.',
      },
      {
        heading: 'Our network',
        text: 'Long-term contracts with the major carriers and airlines, and partner agents in more than 80 countries for clearance and delivery.',
      },
      {
        heading: 'Our customers',
        text: 'Manufacturers, trading companies and online sellers who want reliable space, transparent prices and one contact for the whole journey.',
      },
    ],
  },
  philosophy: {
    title: 'Our philosophy',
    lead: 'Customer first, reliable delivery, open prices: what we promise every shipper, on every shipment.',
    sections: [
      {
        heading: 'Customer first',
        text: 'Every customer has a named contact who knows the cargo and answers within the working day.',
      },
      {
        heading: 'Reliability',
        text: 'We promise only the space and transit times we can deliver, and we say so early when the market changes.',
      },
      { heading: 'Transparency', text: 'All-in prices, online documents and live tracking: you see what we see.' },
      {
        heading: 'Responsibility',
        text: 'We prefer carriers with lower-emission fleets and help customers choose the right mode for cost and carbon.',
      },
    ],
  },
}

const zh: Copy = {
  services: {
    title: '产品与服务',
    lead: '从中国到全球的门到门货运：海运整箱与拼箱、空运、中欧班列、陆运、FBA 头程、报关报检与货物保险，在线订舱、全程跟踪。',
    sections: [
      {
        heading: '海运',
        text: '与主流船公司签订全航线合约运价，上海、宁波、深圳每周直拼出口，操作团队全程跟进每一票订舱直至交付。',
      },
      { heading: '空运', text: '浦东、白云、宝安机场稳定包板舱位，紧急货物可安排最快航班，危险品由持证人员操作。' },
      {
        heading: '报关、仓储与配送',
        text: '自有报关行办理进出口清关，监管仓与普通仓提供集货、贴标、打托服务，并安排末端派送。',
      },
      { heading: '在线自助', text: '在{{site}}随时比价、订舱、提交补料、下载账单、跟踪每一个集装箱。' },
    ],
  },
  fcl: {
    title: '海运整箱',
    lead: '20GP、40GP、40HQ、冷箱及特种箱整箱运输，主要航线合约运价、旺季舱位保障。',
    sections: [
      {
        heading: '运价与舱位',
        text: '与马士基、地中海航运、达飞、中远海运、赫伯罗特、海洋网联签订年度合约，提供全包运价与旺季舱位。',
      },
      { heading: '从工厂到港口', text: '安排提箱、拖车、出口报关和 VGM 申报，并及时告知每个船期的截关截单时间。' },
      {
        heading: '单证与放货',
        text: '装船后 24 小时内提供提单草稿确认，支持电放或正本提单，目的港由代理网络安排派送。',
      },
    ],
  },
  lcl: {
    title: '海运拼箱',
    lead: '按立方米或吨计费的拼箱运输，每周直拼欧洲、美洲、东南亚和中东主要港口。',
    sections: [
      { heading: '直拼航线', text: '上海、宁波、深圳自有 CFS 装箱，中转更少、操作更少、时效更稳定。' },
      { heading: '仓库服务', text: 'CFS 提供收货、量方、贴标、打托和拍照，如有差异在装箱前通知您。' },
      { heading: '价格透明', text: '海运费按 W/M 计收，起运港与目的港费用事先列明，到港无意外费用。' },
    ],
  },
  air: {
    title: '空运',
    lead: '机场到机场及门到门空运，舱位有保障，按计费重量（实重或体积重 1:6000 取大）计价。',
    sections: [
      { heading: '舱位', text: '与国航、东航、南航及合作航司每周包板，运力紧张时可安排包机。' },
      { heading: '特种货物', text: '带电产品、危险品、温控医药品及超大件，由 IATA 认证人员操作。' },
      { heading: '全程跟踪', text: '每一票空运单从收货到到达全程跟踪，状态通过邮件和{{site}}及时通知。' },
    ],
  },
  fba: {
    title: 'FBA 头程',
    lead: '通过海运、空运或快递把货物送达美国、欧洲和日本的亚马逊仓库，含清关与预约派送。',
    sections: [
      { heading: '渠道', text: '美森快船、普通海运、空运和快递渠道，在成本与上架时效之间灵活选择。' },
      { heading: '合规', text: '仓库核对 FBA 标签与箱规，需要时提供进口商名义（IOR）和包税派送。' },
      { heading: '预约与签收', text: '我们预约亚马逊仓库并提供签收证明（POD），确保库存按时上架。' },
    ],
  },
  sea: {
    title: '海运服务',
    lead: '整箱、拼箱、冷箱、超限箱与散杂货，一个团队负责从订舱到目的港交付的全部环节。',
    sections: [
      { heading: '订舱', text: '在线选择运价，填写货物信息即可订舱，当天获得订舱确认和放箱信息。' },
      { heading: '跟进', text: '操作团队核对进港、装船、开船、中转和到港每一个节点，有变化第一时间通知您。' },
      { heading: '目的港', text: '80 多个国家的代理负责进口清关与派送，也可交接给您指定的报关行。' },
    ],
  },
  insurance: {
    title: '货物保险',
    lead: '与知名保险公司合作，为海运、空运、铁路和陆运货物提供一切险，按发票金额加成 10% 投保。',
    sections: [
      {
        heading: '保障范围',
        text: '协会货物条款（A）一切险，附加战争险和罢工险，仓至仓责任，适用于普通货物和高价值货物。',
      },
      { heading: '投保简单', text: '订舱时勾选保险并填写货值，开船前即出具保险单。' },
      { heading: '理赔', text: '发生货损货差时通知我们，我们负责安排查勘、收集单证并跟进理赔直至赔付。' },
    ],
  },
  about: {
    title: '关于我们',
    lead: '{{site}}是一家国际货运代理企业，自 2008 年起为进出口企业提供海运、空运、铁路和跨境电商物流服务。',
    sections: [
      {
        heading: '公司简介',
        text: '具备无船承运人（NVOCC）资质和 IATA 代理资质，在上海、宁波、深圳、青岛设有分公司，拥有 300 多名物流专业人员。',
      },
      { heading: '服务网络', text: '与主要船公司和航空公司签订长期合约，在 80 多个国家拥有合作代理，负责清关与派送。' },
      {
        heading: '我们的客户',
        text: '生产企业、贸易公司和跨境电商卖家：他们需要稳定的舱位、透明的价格和全程唯一的对接人。',
      },
    ],
  },
  philosophy: {
    title: '企业理念',
    lead: '客户至上、准时可靠、价格透明——我们对每一位货主、每一票货物的承诺。',
    sections: [
      { heading: '客户至上', text: '每位客户都有专属对接人，熟悉您的货物，当天工作时间内必有答复。' },
      { heading: '准时可靠', text: '只承诺能兑现的舱位和时效，市场变化时尽早告知。' },
      { heading: '价格透明', text: '全包价格、在线单证、实时跟踪：我们看到的，您也能看到。' },
      { heading: '社会责任', text: '优先选择低排放船队的承运人，帮助客户在成本与碳排放之间选择合适的运输方式。' },
    ],
  },
}

const ja: Copy = {
  services: {
    title: '商品とサービス',
    lead: '中国から世界へのドア・ツー・ドア輸送：海上 FCL・LCL、航空、中欧班列、トラック、FBA 納品、通関と貨物保険をオンラインで予約・追跡。',
    sections: [
      {
        heading: '海上輸送',
        text: '主要船社との全航路契約運賃、上海・寧波・深圳からの週次直行混載、ブッキングから配達まで担当チームが追跡します。',
      },
      {
        heading: '航空輸送',
        text: '浦東・白雲・宝安空港でのスペース確保、緊急貨物の最短便手配、危険品は有資格者が取り扱います。',
      },
      {
        heading: '通関・保管・配送',
        text: '自社通関士による輸出入通関、保税倉庫と一般倉庫での集荷・ラベル貼り・パレタイズ、最終配送まで対応します。',
      },
      {
        heading: 'オンラインセルフサービス',
        text: '{{site}}で運賃比較、予約、船積指示、請求書のダウンロード、コンテナ追跡を24時間いつでも。',
      },
    ],
  },
  fcl: {
    title: '海上輸送 FCL',
    lead: '20GP・40GP・40HQ・リーファー・特殊コンテナの FCL 輸送。主要航路の契約運賃と繁忙期のスペース保証。',
    sections: [
      {
        heading: '運賃とスペース',
        text: 'Maersk、MSC、CMA CGM、COSCO、Hapag-Lloyd、ONE との年間契約で、オールイン運賃と繁忙期の割当を提供します。',
      },
      {
        heading: '工場から港まで',
        text: 'コンテナのピックアップ、ドレージ、輸出通関、VGM を手配し、各本船のカット日時をお知らせします。',
      },
      {
        heading: '書類とリリース',
        text: '積載後24時間以内に B/L ドラフトを確認依頼、サレンダーまたはオリジナル B/L、仕向地は代理店網が配達します。',
      },
    ],
  },
  lcl: {
    title: '海上輸送 LCL',
    lead: '立方メートルまたはトン単位の混載輸送。欧州・米州・東南アジア・中東の主要港へ毎週直行混載。',
    sections: [
      {
        heading: '直行混載',
        text: '上海・寧波・深圳の自社 CFS でバンニングするため、積み替えと荷扱いが少なく、リードタイムが安定します。',
      },
      {
        heading: '倉庫サービス',
        text: 'CFS での受領、検量、ラベル貼り、パレタイズ、写真撮影。差異があれば積込前にご連絡します。',
      },
      {
        heading: '明瞭な料金',
        text: '海上運賃は W/M 建て、積地・揚地費用も事前に提示。到着時の想定外の請求はありません。',
      },
    ],
  },
  air: {
    title: '航空輸送',
    lead: '空港間およびドア・ツー・ドアの航空貨物。スペース保証付き、課金重量（実重量または容積重量 1:6000 の大きい方）で計算します。',
    sections: [
      {
        heading: '輸送力',
        text: '中国国際航空、中国東方航空、中国南方航空および提携航空会社の週次ブロックスペース、逼迫時はチャーターも手配します。',
      },
      { heading: '特殊貨物', text: 'バッテリー、危険品、温度管理医薬品、大型貨物を IATA 認定スタッフが取り扱います。' },
      { heading: '追跡', text: 'すべての航空運送状を受託から到着まで追跡し、状況をメールと{{site}}でお知らせします。' },
    ],
  },
  fba: {
    title: 'FBA 輸送',
    lead: '米国・欧州・日本の Amazon 倉庫への海上・航空・エクスプレス輸送。通関と納品予約を含みます。',
    sections: [
      {
        heading: 'チャネル',
        text: '高速海上（Matson）、通常海上、航空、エクスプレスから、コストと納期に合わせて選べます。',
      },
      {
        heading: 'コンプライアンス',
        text: '倉庫で FBA ラベルと梱包規格を確認し、必要に応じて IOR と関税込み配送を提供します。',
      },
      {
        heading: '納品予約と受領証',
        text: '倉庫の納品予約を取り、POD をお送りします。在庫は予定どおりセラーセントラルに反映されます。',
      },
    ],
  },
  sea: {
    title: '海上輸送サービス',
    lead: 'FCL、LCL、リーファー、特殊貨物、在来船まで、ブッキングから仕向地での配達まで一つの窓口で対応します。',
    sections: [
      {
        heading: 'ブッキング',
        text: 'オンラインで運賃を選び、貨物情報を入力するだけで予約。当日中にブッキング確認とコンテナ情報をお送りします。',
      },
      {
        heading: 'フォローアップ',
        text: '搬入、積載、出港、積み替え、到着の各段階を担当チームが確認し、変更があればすぐにお知らせします。',
      },
      {
        heading: '仕向地',
        text: '80か国以上の代理店が輸入通関と配達を担当し、お客様指定の通関業者への引き渡しも可能です。',
      },
    ],
  },
  insurance: {
    title: '貨物保険',
    lead: '大手保険会社と提携し、海上・航空・鉄道・トラック輸送の貨物にオールリスク保険を提供します。保険金額はインボイス価格の110%です。',
    sections: [
      {
        heading: '補償内容',
        text: '協会貨物約款（A）オールリスク、戦争・ストライキ危険担保、倉庫から倉庫まで。一般貨物と高額貨物に対応します。',
      },
      { heading: '簡単な加入', text: '予約時に保険を選び貨物価格を入力するだけで、出発前に保険証券を発行します。' },
      {
        heading: '保険金請求',
        text: '損傷や紛失があればご連絡ください。サーベイと書類の手配から支払いまで保険会社との手続きを代行します。',
      },
    ],
  },
  about: {
    title: '会社概要',
    lead: '{{site}}は2008年から輸出入企業に海上・航空・鉄道・越境 EC 物流を提供する国際フォワーダーです。',
    sections: [
      {
        heading: '会社について',
        text: 'NVOCC 資格と IATA 代理店資格を持ち、上海・寧波・深圳・青島に拠点、300名以上の物流専門スタッフが在籍しています。',
      },
      {
        heading: 'ネットワーク',
        text: '主要船社・航空会社との長期契約と、80か国以上の提携代理店による通関・配送網を持っています。',
      },
      {
        heading: 'お客様',
        text: '安定したスペース、明瞭な料金、輸送全体を一つの窓口で任せたいメーカー、商社、EC セラーの皆様です。',
      },
    ],
  },
  philosophy: {
    title: '企業理念',
    lead: 'お客様第一、確実な輸送、明瞭な料金。すべての荷主様、すべての貨物へのお約束です。',
    sections: [
      {
        heading: 'お客様第一',
        text: 'すべてのお客様に貨物を熟知した専任担当者がつき、当日の営業時間内に必ずお返事します。',
      },
      {
        heading: '確実性',
        text: '実現できるスペースとリードタイムだけを約束し、市況が変わるときは早めにお伝えします。',
      },
      {
        heading: '透明性',
        text: 'オールイン料金、オンライン書類、リアルタイム追跡。私たちが見ている情報をお客様にも。',
      },
      {
        heading: '社会的責任',
        text: '低排出船隊を持つ船社を優先し、コストと CO2 の両面から最適な輸送手段をご提案します。',
      },
    ],
  },
}

const es: Copy = {
  services: {
    title: 'Productos y servicios',
    lead: 'Transporte puerta a puerta desde China al mundo: marítimo FCL y LCL, aéreo, ferrocarril China–Europa, camión, primera milla FBA, aduanas y seguro de carga, reservado y seguido en línea.',
    sections: [
      {
        heading: 'Transporte marítimo',
        text: 'Tarifas de contrato con las principales navieras en todas las rutas, consolidados LCL semanales desde Shanghái, Ningbo y Shenzhen, y un equipo de operaciones que sigue cada reserva hasta la entrega.',
      },
      {
        heading: 'Transporte aéreo',
        text: 'Espacio garantizado con aerolíneas líderes desde PVG, CAN y SZX, primer vuelo disponible para carga urgente y mercancías peligrosas gestionadas por personal certificado.',
      },
      {
        heading: 'Aduanas, almacenaje y distribución',
        text: 'Despacho de exportación e importación con agentes de aduanas propios, almacenes generales y en depósito para consolidar, etiquetar y paletizar, y reparto final por camión.',
      },
      {
        heading: 'Autoservicio en línea',
        text: 'Compare tarifas, reserve, envíe instrucciones de embarque, descargue facturas y siga cada contenedor en {{site}}, a cualquier hora.',
      },
    ],
  },
  fcl: {
    title: 'Marítimo FCL',
    lead: 'Contenedor completo en 20GP, 40GP, 40HQ, reefer y equipos especiales, con tarifas de contrato y espacio garantizado en las rutas principales.',
    sections: [
      {
        heading: 'Tarifas y espacio',
        text: 'Contratos anuales con Maersk, MSC, CMA CGM, COSCO, Hapag-Lloyd y ONE: tarifas todo incluido y asignación en temporada alta.',
      },
      {
        heading: 'De la fábrica al puerto',
        text: 'Organizamos la recogida del contenedor, el acarreo, la aduana de exportación y el VGM, y le enviamos los cierres de cada salida.',
      },
      {
        heading: 'Documentos y liberación',
        text: 'Borrador del B/L para aprobación en 24 horas tras la carga, liberación telex o conocimientos originales, y entrega en destino con nuestra red de agentes.',
      },
    ],
  },
  lcl: {
    title: 'Marítimo LCL',
    lead: 'Carga consolidada por metro cúbico o tonelada, con consolidados directos semanales a los principales puertos de Europa, América, el Sudeste Asiático y Oriente Medio.',
    sections: [
      {
        heading: 'Consolidados directos',
        text: 'Nuestros propios CFS en Shanghái, Ningbo y Shenzhen significan menos transbordos, menos manipulación y tiempos de tránsito más fiables.',
      },
      {
        heading: 'Servicios de almacén',
        text: 'Recepción, medición, etiquetado, paletizado y fotos en el CFS; cualquier diferencia se le comunica antes de la carga.',
      },
      {
        heading: 'Precios claros',
        text: 'Flete marítimo por W/M y gastos en origen y destino indicados de antemano: sin sorpresas a la llegada.',
      },
    ],
  },
  air: {
    title: 'Transporte aéreo',
    lead: 'Carga aérea aeropuerto a aeropuerto y puerta a puerta con espacio garantizado, tarificada por peso tasable (real o volumétrico 1:6000).',
    sections: [
      {
        heading: 'Capacidad',
        text: 'Espacio semanal con Air China, China Eastern, China Southern y aerolíneas asociadas, y vuelos chárter cuando el mercado está tenso.',
      },
      {
        heading: 'Carga especial',
        text: 'Baterías, mercancías peligrosas, productos farmacéuticos a temperatura controlada y piezas sobredimensionadas, gestionados por personal certificado IATA.',
      },
      {
        heading: 'Seguimiento',
        text: 'Cada guía aérea se sigue desde la aceptación hasta la llegada; recibirá los estados por correo y en {{site}}.',
      },
    ],
  },
  fba: {
    title: 'Envíos FBA',
    lead: 'Primera milla a los centros logísticos de Amazon en EE. UU., Europa y Japón por mar, aire o exprés, con despacho de aduanas y cita de entrega.',
    sections: [
      {
        heading: 'Canales',
        text: 'Marítimo rápido (Matson), marítimo estándar, aéreo y exprés, para equilibrar coste y plazo hasta la venta.',
      },
      {
        heading: 'Cumplimiento',
        text: 'Revisión de etiquetas FBA y cajas en nuestro almacén, importador registrado (IOR) y entrega con derechos pagados cuando sea necesario.',
      },
      {
        heading: 'Citas y prueba de entrega',
        text: 'Reservamos la cita en el almacén y le enviamos el POD, para que el stock aparezca a tiempo en Seller Central.',
      },
    ],
  },
  sea: {
    title: 'Servicio marítimo',
    lead: 'Un solo equipo para cada envío marítimo: FCL, LCL, reefer, fuera de gálibo y carga general, desde la reserva hasta la entrega en destino.',
    sections: [
      {
        heading: 'Reserva',
        text: 'Elija una tarifa en línea, reserve con los datos de su carga y reciba la confirmación y la liberación del contenedor el mismo día.',
      },
      {
        heading: 'Seguimiento',
        text: 'Operaciones comprueba cada hito —entrada en terminal, carga, salida, transbordo y llegada— y le avisa en cuanto algo cambia.',
      },
      {
        heading: 'Destino',
        text: 'Agentes en más de 80 países gestionan el despacho de importación y la entrega, o entregan a su propio agente de aduanas.',
      },
    ],
  },
  insurance: {
    title: 'Seguro de carga',
    lead: 'Seguro a todo riesgo para envíos marítimos, aéreos, ferroviarios y por carretera con aseguradoras líderes, sobre el valor de la factura más un 10 %.',
    sections: [
      {
        heading: 'Cobertura',
        text: 'Cláusulas del Instituto (A) a todo riesgo, guerra y huelgas, de almacén a almacén, para mercancía general y de alto valor.',
      },
      {
        heading: 'Fácil de contratar',
        text: 'Añada el seguro al reservar: indique el valor de la mercancía y el certificado se emite antes de la salida.',
      },
      {
        heading: 'Siniestros',
        text: 'Comuníquenos daños o pérdidas; organizamos la inspección, reunimos los documentos y seguimos la reclamación hasta el pago.',
      },
    ],
  },
  about: {
    title: 'Quiénes somos',
    lead: '{{site}} es un transitario internacional que ofrece logística marítima, aérea, ferroviaria y de comercio electrónico a exportadores e importadores desde 2008.',
    sections: [
      {
        heading: 'Nuestra empresa',
        text: 'NVOCC con licencia y agente IATA, con oficinas en Shanghái, Ningbo, Shenzhen y Qingdao y más de 300 profesionales de la logística.',
      },
      {
        heading: 'Nuestra red',
        text: 'Contratos a largo plazo con las principales navieras y aerolíneas, y agentes asociados en más de 80 países para aduanas y entrega.',
      },
      {
        heading: 'Nuestros clientes',
        text: 'Fabricantes, empresas comerciales y vendedores en línea que buscan espacio fiable, precios transparentes y un solo contacto para todo el trayecto.',
      },
    ],
  },
  philosophy: {
    title: 'Nuestra filosofía',
    lead: 'El cliente primero, entregas fiables, precios claros: lo que prometemos a cada cargador en cada envío.',
    sections: [
      {
        heading: 'El cliente primero',
        text: 'Cada cliente tiene un contacto asignado que conoce su carga y responde dentro de la jornada laboral.',
      },
      {
        heading: 'Fiabilidad',
        text: 'Solo prometemos el espacio y los tiempos que podemos cumplir, y avisamos pronto cuando el mercado cambia.',
      },
      {
        heading: 'Transparencia',
        text: 'Precios todo incluido, documentos en línea y seguimiento en tiempo real: usted ve lo que vemos nosotros.',
      },
      {
        heading: 'Responsabilidad',
        text: 'Preferimos navieras con flotas de menores emisiones y ayudamos a elegir el modo adecuado por coste y carbono.',
      },
    ],
  },
}

const COPY: Record<Language, Copy> = { zh, en, ja, es }

const isPage = (value: unknown): value is SitePage =>
  !!value &&
  typeof value === 'object' &&
  typeof (value as SitePage).title === 'string' &&
  typeof (value as SitePage).lead === 'string' &&
  Array.isArray((value as SitePage).sections)

/** Every page in one language: the tenant's own copy where its settings have it, the defaults otherwise. */
export function sitePages(
  settings: Record<string, unknown>,
  language: Language,
  siteName: string,
): Record<SitePageName, SitePage> {
  const own = (settings.sitePages as Record<string, Record<string, unknown>> | undefined)?.[language] ?? {}
  const fill = (text: string) => text.replaceAll('{{site}}', siteName)
  return Object.fromEntries(
    SITE_PAGES.map((name) => {
      const candidate = own[name]
      const page = isPage(candidate) ? candidate : COPY[language][name]
      return [
        name,
        {
          title: fill(page.title),
          lead: fill(page.lead),
          sections: page.sections.map((s) => ({ heading: fill(String(s.heading)), text: fill(String(s.text)) })),
        },
      ]
    }),
  ) as Record<SitePageName, SitePage>
}
