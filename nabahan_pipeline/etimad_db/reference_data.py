"""Etimad reference data: regions, tender types, statuses, activities, agencies and place names.

Plain constants shaped after the real Saudi e-procurement platform (see
shared/reference/etimad_facts.md). The database generator writes the lookup tables from them and
the reference agent reads them to understand a question ("في جدة" -> region 2).

Names are kept as the platform writes them, quirks included: a Persian yeh (U+06CC) in
'الشؤون الصحیة', a tatweel in 'الشـؤون', 'أمارة' for 'إمارة', activity names padded with tabs
or a trailing space. Compare names only after ``normalize.normalize_arabic``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Region:
    region_id: int
    name_ar: str  # the full form, as in the database: 'منطقة الرياض', 'المنطقة الشرقية'
    name_en: str
    short_ar: str  # as people say it: 'الرياض', 'الشرقية' (the agent's vocabulary starts from it)


@dataclass(frozen=True, slots=True)
class TenderType:
    tender_type_id: int
    name_ar: str
    name_en: str


@dataclass(frozen=True, slots=True)
class Status:
    status_id: int
    name_ar: str
    name_en: str


@dataclass(frozen=True, slots=True)
class Activity:
    activity_id: int
    name_ar: str  # as written on the platform, padding included
    name_en: str
    sector: str  # a coarse grouping of ours (medical, it, construction, ...)


@dataclass(frozen=True, slots=True)
class Agency:
    agency_id: int
    name_ar: str
    name_en: str
    region_id: int  # home region (head office for national bodies)
    kind: str  # health, military, security, ministry, municipality, university, technical, emirate, utility, industry
    national: bool  # tenders for sites all over the kingdom, not only the home region
    awarded: int | None = None  # awarded tenders 2024-2026 on Etimad, where the facts list it


@dataclass(frozen=True, slots=True)
class City:
    name_ar: str
    name_en: str
    region_id: int


REGIONS: tuple[Region, ...] = (
    Region(1, "منطقة الرياض", "Riyadh", "الرياض"),
    Region(2, "منطقة مكة المكرمة", "Makkah", "مكة المكرمة"),
    Region(3, "منطقة المدينة المنورة", "Madinah", "المدينة المنورة"),
    Region(4, "منطقة القصيم", "Qassim", "القصيم"),
    Region(5, "المنطقة الشرقية", "Eastern Province", "الشرقية"),
    Region(6, "منطقة عسير", "Asir", "عسير"),
    Region(7, "منطقة تبوك", "Tabuk", "تبوك"),
    Region(8, "منطقة حائل", "Hail", "حائل"),
    Region(9, "منطقة الحدود الشمالية", "Northern Borders", "الحدود الشمالية"),
    Region(10, "منطقة جازان", "Jazan", "جازان"),
    Region(11, "منطقة نجران", "Najran", "نجران"),
    Region(12, "منطقة الباحة", "Al-Baha", "الباحة"),
    Region(13, "منطقة الجوف", "Al-Jawf", "الجوف"),
)

# Names as in schema.md; the platform also writes 'منافسة إتفاقية إطارية' and 'الالكترونية'.
TENDER_TYPES: tuple[TenderType, ...] = (
    TenderType(1, "منافسة عامة", "Public tender"),
    TenderType(2, "شراء مباشر", "Direct purchase"),
    TenderType(4, "منافسة محدودة", "Limited tender"),
    TenderType(5, "المزايدة العكسية الإلكترونية", "Electronic reverse auction"),
    TenderType(6, "المنافسة على مرحلتين", "Two-stage tender"),
    TenderType(11, "منافسة اتفاقية إطارية", "Framework agreement tender"),
    TenderType(12, "مسابقة", "Design contest"),
)

STATUSES: tuple[Status, ...] = (
    Status(1, "نشطة", "Active"),
    Status(2, "قيد الفحص", "Under evaluation"),
    Status(3, "قيد الترسية", "Awarding"),
    Status(4, "تمت الترسية", "Awarded"),
    Status(5, "ملغاة", "Cancelled"),
    Status(6, "منتهية", "Closed"),
)

# The 32 activities with the most tenders on Etimad, in that order, spelled as the platform spells
# them (tabs included). 'خدمات التأجير ' carries a trailing space, the other padding quirk.
ACTIVITIES: tuple[Activity, ...] = (
    Activity(1, "الأنشطة الطبية", "Medical activities", "medical"),
    Activity(2, "تجارة قطع الغيار الجديدة", "Trade in new spare parts", "parts"),
    Activity(3, "تجارة الأدوات والآلات والأجهزة", "Trade in tools, machines and appliances", "equipment"),
    Activity(4, "تقنية المعلومات", "Information technology", "it"),
    Activity(5, "مقاولات عامة للمباني (الانشاء، الإصلاح، الهدم، الترميم)",
             "General building contracting (construction, repair, demolition, restoration)", "building"),
    Activity(6, "تجارة مواد البناء والأدوات الكهربائية والصحية",
             "Trade in building materials, electrical and sanitary ware", "materials"),
    Activity(7, "\tالتشغيل والصيانة والنظافة للمنشآت - التشغيل والصيانة\t",
             "Facility operation, maintenance and cleaning - operation and maintenance", "om"),
    Activity(8, "تجارة الكماليات", "Trade in accessories", "supplies"),
    Activity(9, "تجارة الأثاث المنزلي والمفروشات والستائر والسجاد",
             "Trade in furniture, furnishings, curtains and carpets", "furniture"),
    Activity(10, "\tمستودعات الادوية والصيدليات - المستلزمات الطبية",
             "Drug warehouses and pharmacies - medical supplies", "medsupplies"),
    Activity(11, "خدمات النشر والطباعة والدعاية والاعلان والإنتاج الفني",
             "Publishing, printing, advertising and media production", "media"),
    Activity(12, "تجارة السيارات والمعدات والماكينات", "Trade in vehicles, equipment and machinery", "vehicles"),
    Activity(13, "\tمستودعات الادوية والصيدليات - الأدوية\t", "Drug warehouses and pharmacies - medicines", "drugs"),
    Activity(14, "إمدادات الكهرباء والغاز والمياه والبخار وتكييف الهواء",
             "Electricity, gas, water, steam and air-conditioning supply", "utilities"),
    Activity(15, "\tمقاولات الإنشاءات العامة (التشييد و بناء المرافق العامة)- إنشاءات عامة\t",
             "Public works contracting - general construction", "building"),
    Activity(16, "خدمات صيانة وإصلاح المركبات", "Vehicle maintenance and repair", "vehicle_maint"),
    Activity(17, "أنشطة الأمن و السلامة", "Security and safety", "security"),
    Activity(18, "الإتصالات", "Telecommunications", "telecom"),
    Activity(19, "خدمات صيانة واصلاح الأجهزة والمعدات والآلات",
             "Maintenance and repair of devices, equipment and machinery", "equip_maint"),
    Activity(20, "\tمقاولات الإنشاءات العامة (التشييد و بناء المرافق العامة) - إنشاء الطرق\t",
             "Public works contracting - road construction", "roads"),
    Activity(21, "أنشطة المعارض والمؤتمرات", "Exhibitions and conferences", "events"),
    Activity(22, "تجارة الملابس والأقمشة والعطور والساعات وأدوات التجميل والنظارات",
             "Trade in clothing, fabrics, perfumes, watches, cosmetics and eyewear", "clothing"),
    Activity(23, "\tالتشغيل والصيانة والنظافة للمنشآت - التشغيل وصيانة الطرق\t",
             "Facility operation, maintenance and cleaning - road operation and maintenance", "road_om"),
    Activity(24, "التشغيل والصيانة والنظافة للمنشآت", "Facility operation, maintenance and cleaning", "om"),
    Activity(25, "تجارة المواد الغذائية", "Food trade", "food"),
    Activity(26, "انشطة النقل والتخزين", "Transport and storage", "transport"),
    Activity(27, "خدمات التأجير ", "Rental services", "rental"),
    Activity(28, "أنشطة التدريب", "Training", "training"),
    Activity(29, "خدمات محطات الوقود وخدمات المركبات الأخرى", "Fuel stations and other vehicle services", "fuel"),
    Activity(30, "أنشطة التعليم", "Education", "education"),
    Activity(31, "تجارة المواد الكيماوية", "Chemicals trade", "chemicals"),
    Activity(32, "أنشطة زراعية", "Agriculture", "agriculture"),
)

_A = Agency
# Agencies 1..40 are the ones with the most awarded tenders (facts file), names verbatim; the rest
# are real bodies of the same kinds so that every region has its municipality, health cluster,
# university and hospitals.
AGENCIES: tuple[Agency, ...] = (
    _A(1, "الشؤون الصحیة بوزارة الحرس الوطني", "Health Affairs, Ministry of National Guard", 1, "health", True, 11861),
    _A(2, "مستشفى مجمع الملك فهد الطبي بالظهران",
       "King Fahd Military Medical Complex, Dhahran", 5, "health", False, 1895),
    _A(3, "حرس الحدود", "Border Guard", 1, "security", True, 1691),
    _A(4, "القوات البحرية", "Royal Saudi Naval Forces", 1, "military", True, 1685),
    _A(5, "الهيئة السعودية للمياه", "Saudi Water Authority", 1, "utility", True, 1599),
    _A(6, "القوات البرية", "Royal Saudi Land Forces", 1, "military", True, 1325),
    _A(7, "مركز الأمير سلطان لأمراض وجراحة القلب", "Prince Sultan Cardiac Center", 1, "health", False, 1038),
    _A(8, "قوات الدفاع الجوي", "Royal Saudi Air Defense Forces", 1, "military", True, 995),
    _A(9, "وزارة الحرس الوطني", "Ministry of National Guard", 1, "military", True, 993),
    _A(10, "مستشفى القوات المسلحة بالرياض", "Armed Forces Hospital, Riyadh", 1, "health", False, 979),
    _A(11, "مستشفى قوى الأمن بمنطقة الرياض", "Security Forces Hospital, Riyadh", 1, "health", False, 742),
    _A(12, "مستشفى الملك فهد بجدة", "King Fahd Hospital, Jeddah", 2, "health", False, 726),
    _A(13, "مستشفى تبوك", "Tabuk Hospital", 7, "health", False, 705),
    _A(14, "جامعة الملك سعود بن عبد العزیز للعلوم الصحیة",
       "King Saud bin Abdulaziz University for Health Sciences", 1, "university", False, 626),
    _A(15, "ادارة الشؤون الفنية المركزية بمنطقة الرياض",
       "Central Technical Affairs Department, Riyadh Region", 1, "technical", False, 597),
    _A(16, "مستشفى خميس مشيط", "Khamis Mushait Hospital", 6, "health", False, 555),
    _A(17, "وزارة الشـؤون الاسلامية والدعوة والارشاد",
       "Ministry of Islamic Affairs, Dawah and Guidance", 1, "ministry", True, 529),
    _A(18, "ادارة الشؤون الفنية بالمشاعر والعاصمة المقدسة",
       "Technical Affairs Department, Holy Sites and the Holy Capital", 2, "technical", False, 528),
    _A(19, "المؤسسة العامة للصناعات العسكرية", "Military Industries Corporation", 1, "industry", True, 498),
    _A(20, "أمانة منطقة الرياض", "Riyadh Region Municipality", 1, "municipality", False, 489),
    _A(21, "ادارة الشؤون الفنية المركزية بمنطقة مكة المكرمة",
       "Central Technical Affairs Department, Makkah Region", 2, "technical", False, 475),
    _A(22, "مستشفى قوى الأمن بمنطقة مكة المكرمة", "Security Forces Hospital, Makkah Region", 2, "health", False, 462),
    _A(23, "تجمع الشرقية الصحي", "Eastern Health Cluster", 5, "health", False, 461),
    _A(24, "المباحث العامة", "General Investigation Directorate", 1, "security", True, 404),
    _A(25, "أمارة منطقة الرياض", "Riyadh Region Principality", 1, "emirate", False, 384),
    _A(26, "وزارة النقل والخدمات اللوجستية - الديوان العام",
       "Ministry of Transport and Logistic Services - Headquarters", 1, "ministry", True, 379),
    _A(27, "مستشفيات الهدا والأمير سلطان والأمير منصور ومركز التأهيل",
       "Al-Hada, Prince Sultan and Prince Mansour Hospitals and Rehabilitation Center", 2, "health", False, 372),
    _A(28, "مستشفى قاعدة الملك عبدالعزيز الجوية بالظهران",
       "King Abdulaziz Air Base Hospital, Dhahran", 5, "health", False, 331),
    _A(29, "المديرية العامة لمكافحة المخدرات", "General Directorate of Narcotics Control", 1, "security", True, 313),
    _A(30, "وزارة العدل - الديوان العام", "Ministry of Justice - Headquarters", 1, "ministry", True, 312),
    _A(31, "رئاسة هيئة الأركان العامة", "General Staff Presidency", 1, "military", True, 305),
    _A(32, "قوة أمن المنشآت", "Facilities Security Force", 1, "security", True, 286),
    _A(33, "مستشفى المدينة المنورة", "Madinah Hospital", 3, "health", False, 277),
    _A(34, "وزارة البيئة والمياه والزراعة", "Ministry of Environment, Water and Agriculture", 1, "ministry", True, 257),
    _A(35, "وزارة الداخلية - الديوان العام", "Ministry of Interior - Headquarters", 1, "ministry", True, 256),
    _A(36, "مستشفى الجبيل", "Jubail Hospital", 5, "health", False, 245),
    _A(37, "الأمن العام ( الإدارة العامة للمرور)",
       "Public Security (General Directorate of Traffic)", 1, "security", True, 244),
    _A(38, "ادارة الشؤون الفنية المركزية بالمنطقة الشرقية",
       "Central Technical Affairs Department, Eastern Province", 5, "technical", False, 243),
    _A(39, "الديوان العام لرئاسة أمن الدولة", "Presidency of State Security - Headquarters", 1, "security", True, 236),
    _A(40, "الأمن العام ( الإدارة العامة لدوريات الأمن)",
       "Public Security (General Directorate of Security Patrols)", 1, "security", True, 222),
    # Ministries and national authorities.
    _A(41, "وزارة الصحة - الديوان العام", "Ministry of Health - Headquarters", 1, "health", True),
    _A(42, "وزارة التعليم - الديوان العام", "Ministry of Education - Headquarters", 1, "ministry", True),
    _A(43, "وزارة المالية", "Ministry of Finance", 1, "ministry", True),
    _A(44, "وزارة الشؤون البلدية والقروية والإسكان",
       "Ministry of Municipal, Rural Affairs and Housing", 1, "ministry", True),
    _A(45, "وزارة الموارد البشرية والتنمية الاجتماعية",
       "Ministry of Human Resources and Social Development", 1, "ministry", True),
    _A(46, "وزارة الدفاع", "Ministry of Defense", 1, "military", True),
    _A(47, "وزارة الرياضة", "Ministry of Sport", 1, "ministry", True),
    _A(48, "وزارة الثقافة", "Ministry of Culture", 1, "ministry", True),
    _A(49, "الهيئة العامة للإحصاء", "General Authority for Statistics", 1, "ministry", True),
    _A(50, "هيئة الهلال الأحمر السعودي", "Saudi Red Crescent Authority", 1, "health", True),
    _A(51, "المديرية العامة للدفاع المدني", "General Directorate of Civil Defense", 1, "security", True),
    _A(52, "المؤسسة العامة للتدريب التقني والمهني",
       "Technical and Vocational Training Corporation", 1, "university", True),
    _A(53, "القوات الجوية الملكية السعودية", "Royal Saudi Air Force", 1, "military", True),
    _A(54, "وزارة الحج والعمرة", "Ministry of Hajj and Umrah", 2, "ministry", False),
    # Municipalities.
    _A(55, "أمانة محافظة جدة", "Jeddah Municipality", 2, "municipality", False),
    _A(56, "أمانة العاصمة المقدسة", "Holy Makkah Municipality", 2, "municipality", False),
    _A(57, "أمانة محافظة الطائف", "Taif Municipality", 2, "municipality", False),
    _A(58, "أمانة المنطقة الشرقية", "Eastern Province Municipality", 5, "municipality", False),
    _A(59, "أمانة الأحساء", "Al-Ahsa Municipality", 5, "municipality", False),
    _A(60, "أمانة منطقة المدينة المنورة", "Madinah Region Municipality", 3, "municipality", False),
    _A(61, "أمانة منطقة القصيم", "Qassim Region Municipality", 4, "municipality", False),
    _A(62, "أمانة منطقة عسير", "Asir Region Municipality", 6, "municipality", False),
    _A(63, "أمانة منطقة تبوك", "Tabuk Region Municipality", 7, "municipality", False),
    _A(64, "أمانة منطقة حائل", "Hail Region Municipality", 8, "municipality", False),
    _A(65, "أمانة منطقة الحدود الشمالية", "Northern Borders Region Municipality", 9, "municipality", False),
    _A(66, "أمانة منطقة جازان", "Jazan Region Municipality", 10, "municipality", False),
    _A(67, "أمانة منطقة نجران", "Najran Region Municipality", 11, "municipality", False),
    _A(68, "أمانة منطقة الباحة", "Al-Baha Region Municipality", 12, "municipality", False),
    _A(69, "أمانة منطقة الجوف", "Al-Jawf Region Municipality", 13, "municipality", False),
    # Health clusters.
    _A(70, "تجمع الرياض الصحي الأول", "Riyadh First Health Cluster", 1, "health", False),
    _A(71, "تجمع الرياض الصحي الثاني", "Riyadh Second Health Cluster", 1, "health", False),
    _A(72, "تجمع مكة المكرمة الصحي", "Makkah Health Cluster", 2, "health", False),
    _A(73, "تجمع جدة الصحي الأول", "Jeddah First Health Cluster", 2, "health", False),
    _A(74, "تجمع المدينة المنورة الصحي", "Madinah Health Cluster", 3, "health", False),
    _A(75, "تجمع القصيم الصحي", "Qassim Health Cluster", 4, "health", False),
    _A(76, "تجمع الأحساء الصحي", "Al-Ahsa Health Cluster", 5, "health", False),
    _A(77, "تجمع عسير الصحي", "Asir Health Cluster", 6, "health", False),
    _A(78, "تجمع تبوك الصحي", "Tabuk Health Cluster", 7, "health", False),
    _A(79, "تجمع حائل الصحي", "Hail Health Cluster", 8, "health", False),
    _A(80, "تجمع الحدود الشمالية الصحي", "Northern Borders Health Cluster", 9, "health", False),
    _A(81, "تجمع جازان الصحي", "Jazan Health Cluster", 10, "health", False),
    _A(82, "تجمع نجران الصحي", "Najran Health Cluster", 11, "health", False),
    _A(83, "تجمع الباحة الصحي", "Al-Baha Health Cluster", 12, "health", False),
    _A(84, "تجمع الجوف الصحي", "Al-Jawf Health Cluster", 13, "health", False),
    # Hospitals.
    _A(85, "مستشفى الملك فيصل التخصصي ومركز الأبحاث",
       "King Faisal Specialist Hospital and Research Centre", 1, "health", False),
    _A(86, "مدينة الملك سعود الطبية", "King Saud Medical City", 1, "health", False),
    _A(87, "مستشفى القوات المسلحة بالجنوب", "Armed Forces Hospital, Southern Region", 6, "health", False),
    _A(88, "مستشفى الملك فهد التخصصي ببريدة", "King Fahd Specialist Hospital, Buraidah", 4, "health", False),
    _A(89, "مستشفى الملك خالد بنجران", "King Khalid Hospital, Najran", 11, "health", False),
    _A(90, "مستشفى الملك فهد بالمدينة المنورة", "King Fahad Hospital, Madinah", 3, "health", False),
    # Universities.
    _A(91, "جامعة الملك سعود", "King Saud University", 1, "university", False),
    _A(92, "جامعة الأميرة نورة بنت عبدالرحمن", "Princess Nourah bint Abdulrahman University", 1, "university", False),
    _A(93, "جامعة الإمام محمد بن سعود الإسلامية", "Imam Mohammad Ibn Saud Islamic University", 1, "university", False),
    _A(94, "جامعة الملك عبدالعزيز", "King Abdulaziz University", 2, "university", False),
    _A(95, "جامعة أم القرى", "Umm Al-Qura University", 2, "university", False),
    _A(96, "الجامعة الإسلامية بالمدينة المنورة", "Islamic University of Madinah", 3, "university", False),
    _A(97, "جامعة طيبة", "Taibah University", 3, "university", False),
    _A(98, "جامعة القصيم", "Qassim University", 4, "university", False),
    _A(99, "جامعة الإمام عبدالرحمن بن فيصل", "Imam Abdulrahman Bin Faisal University", 5, "university", False),
    _A(100, "جامعة الملك فيصل", "King Faisal University", 5, "university", False),
    _A(101, "جامعة الملك خالد", "King Khalid University", 6, "university", False),
    _A(102, "جامعة تبوك", "University of Tabuk", 7, "university", False),
    _A(103, "جامعة حائل", "University of Hail", 8, "university", False),
    _A(104, "جامعة الحدود الشمالية", "Northern Border University", 9, "university", False),
    _A(105, "جامعة جازان", "Jazan University", 10, "university", False),
    _A(106, "جامعة نجران", "Najran University", 11, "university", False),
    _A(107, "جامعة الباحة", "Al-Baha University", 12, "university", False),
    _A(108, "جامعة الجوف", "Jouf University", 13, "university", False),
    # Principalities.
    _A(109, "إمارة منطقة مكة المكرمة", "Makkah Region Principality", 2, "emirate", False),
    _A(110, "إمارة المنطقة الشرقية", "Eastern Province Principality", 5, "emirate", False),
    _A(111, "إمارة منطقة المدينة المنورة", "Madinah Region Principality", 3, "emirate", False),
    _A(112, "إمارة منطقة عسير", "Asir Region Principality", 6, "emirate", False),
)
del _A

# Cities and governorates people name instead of a region; the first of each region is its seat.
CITIES: tuple[City, ...] = (
    City("الرياض", "Riyadh", 1),
    City("الخرج", "Al-Kharj", 1),
    City("الدرعية", "Diriyah", 1),
    City("المجمعة", "Al-Majmaah", 1),
    City("الدوادمي", "Al-Duwadimi", 1),
    City("وادي الدواسر", "Wadi Al-Dawasir", 1),
    City("الزلفي", "Az-Zulfi", 1),
    City("مكة المكرمة", "Makkah", 2),
    City("جدة", "Jeddah", 2),
    City("الطائف", "Taif", 2),
    City("رابغ", "Rabigh", 2),
    City("القنفذة", "Al-Qunfudhah", 2),
    City("الليث", "Al-Lith", 2),
    City("المدينة المنورة", "Madinah", 3),
    City("ينبع", "Yanbu", 3),
    City("العلا", "AlUla", 3),
    City("بريدة", "Buraidah", 4),
    City("عنيزة", "Unaizah", 4),
    City("الرس", "Ar-Rass", 4),
    City("البكيرية", "Al-Bukayriyah", 4),
    City("الدمام", "Dammam", 5),
    City("الخبر", "Khobar", 5),
    City("الظهران", "Dhahran", 5),
    City("الجبيل", "Jubail", 5),
    City("الأحساء", "Al-Ahsa", 5),
    City("الهفوف", "Hofuf", 5),
    City("القطيف", "Qatif", 5),
    City("حفر الباطن", "Hafar Al-Batin", 5),
    City("الخفجي", "Khafji", 5),
    City("أبها", "Abha", 6),
    City("خميس مشيط", "Khamis Mushait", 6),
    City("بيشة", "Bisha", 6),
    City("محايل عسير", "Muhayil Asir", 6),
    City("النماص", "An-Namas", 6),
    City("تبوك", "Tabuk", 7),
    City("الوجه", "Al-Wajh", 7),
    City("ضباء", "Duba", 7),
    City("أملج", "Umluj", 7),
    City("تيماء", "Tayma", 7),
    City("حائل", "Hail", 8),
    City("بقعاء", "Baqaa", 8),
    City("عرعر", "Arar", 9),
    City("رفحاء", "Rafha", 9),
    City("طريف", "Turaif", 9),
    City("جازان", "Jazan", 10),
    City("صبيا", "Sabya", 10),
    City("أبو عريش", "Abu Arish", 10),
    City("صامطة", "Samtah", 10),
    City("نجران", "Najran", 11),
    City("شرورة", "Sharurah", 11),
    City("الباحة", "Al-Baha", 12),
    City("بلجرشي", "Baljurashi", 12),
    City("المخواة", "Al-Makhwah", 12),
    City("سكاكا", "Sakaka", 13),
    City("دومة الجندل", "Dumat Al-Jandal", 13),
    City("القريات", "Al-Qurayyat", 13),
    City("طبرجل", "Tabarjal", 13),
)

