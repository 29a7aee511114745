import type { AcupointMeridian, L10n, TreatmentAction } from '@app/contract';
import type { Tx } from '../../db/client';
import { acupointActions, acupoints } from '../../db/schema';
import { t } from '../../lib/labels';

export const order = 20;

interface SeedPoint {
  code: string;
  meridian: AcupointMeridian;
  measure: boolean;
  treat: boolean;
  name: L10n;
  location: L10n;
  indications: L10n;
  actions?: TreatmentAction[];
}

const act = (waveform: TreatmentAction['waveform'], frequency_hz: number, intensity_min: number, intensity_max: number, minutes: number): TreatmentAction => ({
  waveform,
  frequency_hz,
  intensity_min,
  intensity_max,
  minutes,
});

/**
 * The 12 source (yuan) points, measured on both sides (left/right belongs to the reading), then common
 * treatment points. Names: pinyin with the English translation; locations per the WHO standard.
 */
export const SEED_ACUPOINTS: SeedPoint[] = [
  {
    code: 'LU9',
    meridian: 'LU',
    measure: true,
    treat: true,
    name: t('太渊', 'Taiyuan (Great Abyss)', 'Taiyuan (Gran Abismo)', '太淵（たいえん）'),
    location: t(
      '腕掌侧横纹桡侧，桡动脉搏动处',
      'On the palmar wrist crease, radial to the radial artery',
      'En el pliegue palmar de la muñeca, por fuera de la arteria radial',
      '手関節掌側横紋の橈側、橈骨動脈拍動部',
    ),
    indications: t('咳嗽、气喘、胸痛、腕痛', 'Cough, wheezing, chest pain, wrist pain', 'Tos, sibilancias, dolor torácico, dolor de muñeca', '咳、喘息、胸痛、手首の痛み'),
    actions: [act('continuous', 2, 10, 30, 15)],
  },
  {
    code: 'PC7',
    meridian: 'PC',
    measure: true,
    treat: false,
    name: t('大陵', 'Daling (Great Mound)', 'Daling (Gran Montículo)', '大陵（だいりょう）'),
    location: t(
      '腕掌侧横纹中点，掌长肌腱与桡侧腕屈肌腱之间',
      'Midpoint of the palmar wrist crease, between the palmaris longus and flexor carpi radialis tendons',
      'Punto medio del pliegue palmar de la muñeca, entre los tendones del palmar largo y del flexor radial del carpo',
      '手関節掌側横紋の中点、長掌筋腱と橈側手根屈筋腱の間',
    ),
    indications: t('心痛、心悸、失眠、腕关节疼痛', 'Heart pain, palpitations, insomnia, wrist pain', 'Dolor cardíaco, palpitaciones, insomnio, dolor de muñeca', '胸痛、動悸、不眠、手関節の痛み'),
  },
  {
    code: 'HT7',
    meridian: 'HT',
    measure: true,
    treat: true,
    name: t('神门', 'Shenmen (Spirit Gate)', 'Shenmen (Puerta del Espíritu)', '神門（しんもん）'),
    location: t(
      '腕掌侧横纹尺侧端，尺侧腕屈肌腱的桡侧凹陷处',
      'On the palmar wrist crease, in the depression radial to the flexor carpi ulnaris tendon',
      'En el pliegue palmar de la muñeca, en la depresión radial al tendón del flexor cubital del carpo',
      '手関節掌側横紋の尺側、尺側手根屈筋腱の橈側の陥凹部',
    ),
    indications: t('失眠、健忘、心悸、焦虑', 'Insomnia, forgetfulness, palpitations, anxiety', 'Insomnio, olvidos, palpitaciones, ansiedad', '不眠、物忘れ、動悸、不安'),
    actions: [act('dense-sparse', 2, 5, 25, 20)],
  },
  {
    code: 'SI4',
    meridian: 'SI',
    measure: true,
    treat: false,
    name: t('腕骨', 'Wangu (Wrist Bone)', 'Wangu (Hueso de la Muñeca)', '腕骨（わんこつ）'),
    location: t(
      '手掌尺侧，第5掌骨底与三角骨之间的赤白肉际凹陷中',
      'Ulnar side of the hand, in the depression between the base of the 5th metacarpal and the triquetrum',
      'Borde cubital de la mano, en la depresión entre la base del 5.º metacarpiano y el piramidal',
      '手の尺側、第5中手骨底と三角骨の間の陥凹部、赤白肉際',
    ),
    indications: t('头痛、颈项强痛、耳鸣、腕痛', 'Headache, stiff neck, tinnitus, wrist pain', 'Cefalea, rigidez de nuca, acúfenos, dolor de muñeca', '頭痛、項部のこわばり、耳鳴り、手首の痛み'),
  },
  {
    code: 'TE4',
    meridian: 'TE',
    measure: true,
    treat: false,
    name: t('阳池', 'Yangchi (Yang Pool)', 'Yangchi (Estanque del Yang)', '陽池（ようち）'),
    location: t(
      '腕背侧横纹上，指伸肌腱的尺侧缘凹陷中',
      'On the dorsal wrist crease, in the depression ulnar to the extensor digitorum tendon',
      'En el pliegue dorsal de la muñeca, en la depresión cubital al tendón del extensor de los dedos',
      '手関節背側横紋上、総指伸筋腱の尺側の陥凹部',
    ),
    indications: t(
      '腕痛、肩臂痛、口干、耳聋',
      'Wrist pain, shoulder and arm pain, dry mouth, deafness',
      'Dolor de muñeca, dolor de hombro y brazo, boca seca, sordera',
      '手首の痛み、肩や腕の痛み、口渇、難聴',
    ),
  },
  {
    code: 'LI4',
    meridian: 'LI',
    measure: true,
    treat: true,
    name: t('合谷', 'Hegu (Union Valley)', 'Hegu (Valle de la Unión)', '合谷（ごうこく）'),
    location: t(
      '手背，第2掌骨桡侧的中点处',
      'On the back of the hand, radial to the midpoint of the 2nd metacarpal',
      'En el dorso de la mano, en el punto medio del borde radial del 2.º metacarpiano',
      '手背、第2中手骨の橈側の中点',
    ),
    indications: t('头痛、牙痛、咽喉肿痛、感冒', 'Headache, toothache, sore throat, common cold', 'Cefalea, dolor de muelas, dolor de garganta, resfriado', '頭痛、歯痛、咽頭痛、かぜ'),
    actions: [act('dense-sparse', 2, 15, 40, 20), act('continuous', 80, 10, 30, 10)],
  },
  {
    code: 'SP3',
    meridian: 'SP',
    measure: true,
    treat: false,
    name: t('太白', 'Taibai (Supreme White)', 'Taibai (Blanco Supremo)', '太白（たいはく）'),
    location: t(
      '足内侧缘，第1跖趾关节近端赤白肉际凹陷中',
      'Medial side of the foot, in the depression proximal to the 1st metatarsophalangeal joint',
      'Borde medial del pie, en la depresión proximal a la 1.ª articulación metatarsofalángica',
      '足の内側、第1中足指節関節の近位の陥凹部、赤白肉際',
    ),
    indications: t(
      '胃痛、腹胀、泄泻、体重身倦',
      'Stomach ache, bloating, diarrhoea, heaviness and fatigue',
      'Dolor de estómago, distensión, diarrea, pesadez y cansancio',
      '胃痛、腹部膨満、下痢、体の重だるさ',
    ),
  },
  {
    code: 'LR3',
    meridian: 'LR',
    measure: true,
    treat: true,
    name: t('太冲', 'Taichong (Great Surge)', 'Taichong (Gran Embestida)', '太衝（たいしょう）'),
    location: t(
      '足背，第1、2跖骨间，跖骨底结合部前方凹陷中',
      'On the top of the foot, between the 1st and 2nd metatarsals, in the depression distal to their junction',
      'En el dorso del pie, entre el 1.º y 2.º metatarsianos, en la depresión distal a su unión',
      '足背、第1・第2中足骨間、両骨底接合部の遠位の陥凹部',
    ),
    indications: t(
      '头痛、眩晕、高血压、易怒、月经不调',
      'Headache, dizziness, high blood pressure, irritability, irregular periods',
      'Cefalea, mareo, hipertensión, irritabilidad, menstruación irregular',
      '頭痛、めまい、高血圧、いらいら、月経不順',
    ),
    actions: [act('continuous', 2, 10, 35, 20)],
  },
  {
    code: 'KI3',
    meridian: 'KI',
    measure: true,
    treat: true,
    name: t('太溪', 'Taixi (Great Ravine)', 'Taixi (Gran Arroyo)', '太渓（たいけい）'),
    location: t(
      '内踝尖与跟腱之间的凹陷中',
      'In the depression between the tip of the medial malleolus and the Achilles tendon',
      'En la depresión entre la punta del maléolo interno y el tendón de Aquiles',
      '内果尖とアキレス腱の間の陥凹部',
    ),
    indications: t('腰痛、耳鸣、失眠、尿频', 'Low back pain, tinnitus, insomnia, frequent urination', 'Lumbalgia, acúfenos, insomnio, micción frecuente', '腰痛、耳鳴り、不眠、頻尿'),
    actions: [act('continuous', 2, 10, 30, 20)],
  },
  {
    code: 'BL64',
    meridian: 'BL',
    measure: true,
    treat: false,
    name: t('京骨', 'Jinggu (Capital Bone)', 'Jinggu (Hueso Capital)', '京骨（けいこつ）'),
    location: t(
      '足外侧，第5跖骨粗隆前下方，赤白肉际处',
      'Lateral side of the foot, distal to the tuberosity of the 5th metatarsal, at the border of the sole',
      'Borde lateral del pie, distal a la tuberosidad del 5.º metatarsiano, en el límite de la planta',
      '足の外側、第5中足骨粗面の遠位、赤白肉際',
    ),
    indications: t('头痛、项强、腰腿痛', 'Headache, stiff neck, pain of the lower back and legs', 'Cefalea, rigidez de nuca, dolor lumbar y de piernas', '頭痛、項部のこわばり、腰と脚の痛み'),
  },
  {
    code: 'GB40',
    meridian: 'GB',
    measure: true,
    treat: false,
    name: t('丘墟', 'Qiuxu (Hill Ruins)', 'Qiuxu (Ruinas de la Colina)', '丘墟（きゅうきょ）'),
    location: t(
      '外踝前下方，趾长伸肌腱的外侧凹陷中',
      'Below and in front of the lateral malleolus, in the depression lateral to the extensor digitorum longus tendon',
      'Por delante y debajo del maléolo externo, en la depresión lateral al tendón del extensor largo de los dedos',
      '外果の前下方、長指伸筋腱の外側の陥凹部',
    ),
    indications: t(
      '胸胁胀痛、踝关节扭伤、下肢痿痹',
      'Pain in the chest and flanks, sprained ankle, weak or numb legs',
      'Dolor en tórax e hipocondrios, esguince de tobillo, debilidad o entumecimiento de piernas',
      '胸脇部の張りと痛み、足関節捻挫、下肢の麻痺やしびれ',
    ),
  },
  {
    code: 'ST42',
    meridian: 'ST',
    measure: true,
    treat: false,
    name: t('冲阳', 'Chongyang (Surging Yang)', 'Chongyang (Yang Impetuoso)', '衝陽（しょうよう）'),
    location: t(
      '足背最高处，足背动脉搏动处',
      'At the highest point of the top of the foot, over the pulse of the dorsalis pedis artery',
      'En el punto más alto del dorso del pie, sobre el pulso de la arteria pedia',
      '足背の最も高い所、足背動脈拍動部',
    ),
    indications: t(
      '胃痛、腹胀、牙痛、足背肿痛',
      'Stomach ache, bloating, toothache, swollen and painful foot',
      'Dolor de estómago, distensión, dolor de muelas, pie hinchado y doloroso',
      '胃痛、腹部膨満、歯痛、足背の腫れと痛み',
    ),
  },
  // Common treatment points
  {
    code: 'ST36',
    meridian: 'ST',
    measure: false,
    treat: true,
    name: t('足三里', 'Zusanli (Leg Three Miles)', 'Zusanli (Tres Millas de la Pierna)', '足三里（あしさんり）'),
    location: t(
      '犊鼻下3寸，胫骨前嵴外一横指',
      '3 cun below the lateral knee eye (ST35), one finger-breadth lateral to the shin bone',
      '3 cun por debajo del ojo externo de la rodilla (ST35), a un través de dedo por fuera de la tibia',
      '犢鼻の下3寸、脛骨前縁の外方1横指',
    ),
    indications: t(
      '胃痛、消化不良、疲劳乏力、免疫力低下',
      'Stomach ache, indigestion, fatigue, low resistance',
      'Dolor de estómago, indigestión, cansancio, defensas bajas',
      '胃痛、消化不良、疲労倦怠、免疫力の低下',
    ),
    actions: [act('dense-sparse', 2, 15, 45, 20), act('continuous', 4, 10, 35, 10)],
  },
  {
    code: 'LI11',
    meridian: 'LI',
    measure: false,
    treat: true,
    name: t('曲池', 'Quchi (Pool at the Bend)', 'Quchi (Estanque en la Curva)', '曲池（きょくち）'),
    location: t(
      '屈肘，肘横纹外侧端与肱骨外上髁连线中点',
      'With the elbow bent, midway between the outer end of the elbow crease and the lateral epicondyle',
      'Con el codo flexionado, a medio camino entre el extremo externo del pliegue del codo y el epicóndilo lateral',
      '肘を曲げ、肘窩横紋の外端と上腕骨外側上顆を結ぶ線の中点',
    ),
    indications: t(
      '发热、高血压、皮肤瘙痒、肘臂疼痛',
      'Fever, high blood pressure, itchy skin, elbow and arm pain',
      'Fiebre, hipertensión, picor de piel, dolor de codo y brazo',
      '発熱、高血圧、皮膚のかゆみ、肘や腕の痛み',
    ),
    actions: [act('continuous', 4, 10, 40, 15)],
  },
  {
    code: 'SP6',
    meridian: 'SP',
    measure: false,
    treat: true,
    name: t('三阴交', 'Sanyinjiao (Three Yin Intersection)', 'Sanyinjiao (Intersección de los Tres Yin)', '三陰交（さんいんこう）'),
    location: t(
      '内踝尖上3寸，胫骨内侧缘后际',
      '3 cun above the tip of the medial malleolus, behind the medial border of the tibia',
      '3 cun por encima de la punta del maléolo interno, detrás del borde medial de la tibia',
      '内果尖の上3寸、脛骨内側縁の後際',
    ),
    indications: t(
      '月经不调、痛经、失眠、消化不良',
      'Irregular periods, period pain, insomnia, indigestion',
      'Menstruación irregular, dolor menstrual, insomnio, indigestión',
      '月経不順、月経痛、不眠、消化不良',
    ),
    actions: [act('dense-sparse', 2, 10, 35, 20)],
  },
  {
    code: 'PC6',
    meridian: 'PC',
    measure: false,
    treat: true,
    name: t('内关', 'Neiguan (Inner Pass)', 'Neiguan (Paso Interior)', '内関（ないかん）'),
    location: t(
      '腕掌侧远端横纹上2寸，掌长肌腱与桡侧腕屈肌腱之间',
      '2 cun above the palmar wrist crease, between the palmaris longus and flexor carpi radialis tendons',
      '2 cun por encima del pliegue palmar de la muñeca, entre los tendones del palmar largo y del flexor radial del carpo',
      '手関節掌側横紋の上2寸、長掌筋腱と橈側手根屈筋腱の間',
    ),
    indications: t(
      '心悸、胸闷、恶心呕吐、晕车',
      'Palpitations, chest tightness, nausea and vomiting, motion sickness',
      'Palpitaciones, opresión torácica, náuseas y vómitos, mareo en viajes',
      '動悸、胸苦しさ、吐き気・嘔吐、乗り物酔い',
    ),
    actions: [act('continuous', 2, 5, 25, 15)],
  },
  {
    code: 'GB20',
    meridian: 'GB',
    measure: false,
    treat: true,
    name: t('风池', 'Fengchi (Wind Pool)', 'Fengchi (Estanque del Viento)', '風池（ふうち）'),
    location: t(
      '枕骨之下，胸锁乳突肌上端与斜方肌上端之间的凹陷中',
      'Below the occipital bone, in the hollow between the upper ends of the sternocleidomastoid and trapezius',
      'Debajo del occipital, en el hueco entre los extremos superiores del esternocleidomastoideo y el trapecio',
      '後頭骨の下、胸鎖乳突筋と僧帽筋の上端の間の陥凹部',
    ),
    indications: t(
      '头痛、眩晕、颈项强痛、感冒',
      'Headache, dizziness, stiff and painful neck, common cold',
      'Cefalea, mareo, cuello rígido y doloroso, resfriado',
      '頭痛、めまい、首のこわばりと痛み、かぜ',
    ),
    actions: [act('continuous', 2, 5, 20, 15)],
  },
  {
    code: 'GB34',
    meridian: 'GB',
    measure: false,
    treat: true,
    name: t('阳陵泉', 'Yanglingquan (Yang Mound Spring)', 'Yanglingquan (Manantial de la Colina Yang)', '陽陵泉（ようりょうせん）'),
    location: t('腓骨头前下方凹陷中', 'In the depression in front of and below the head of the fibula', 'En la depresión por delante y debajo de la cabeza del peroné', '腓骨頭の前下方の陥凹部'),
    indications: t(
      '膝痛、下肢麻木、胁痛、口苦',
      'Knee pain, numb legs, pain in the flanks, bitter taste',
      'Dolor de rodilla, piernas entumecidas, dolor en los costados, sabor amargo',
      '膝の痛み、下肢のしびれ、脇腹の痛み、口の苦み',
    ),
    actions: [act('intermittent', 4, 15, 45, 20)],
  },
  {
    code: 'BL23',
    meridian: 'BL',
    measure: false,
    treat: true,
    name: t('肾俞', 'Shenshu (Kidney Shu)', 'Shenshu (Punto Shu del Riñón)', '腎兪（じんゆ）'),
    location: t(
      '第2腰椎棘突下，后正中线旁开1.5寸',
      '1.5 cun lateral to the lower border of the spinous process of the 2nd lumbar vertebra',
      '1,5 cun por fuera del borde inferior de la apófisis espinosa de la 2.ª vértebra lumbar',
      '第2腰椎棘突下縁の外方1.5寸',
    ),
    indications: t('腰痛、耳鸣、遗尿、月经不调', 'Low back pain, tinnitus, bedwetting, irregular periods', 'Lumbalgia, acúfenos, enuresis, menstruación irregular', '腰痛、耳鳴り、夜尿、月経不順'),
    actions: [act('dense-sparse', 2, 15, 50, 20)],
  },
  {
    code: 'BL40',
    meridian: 'BL',
    measure: false,
    treat: true,
    name: t('委中', 'Weizhong (Bend Middle)', 'Weizhong (Centro del Pliegue)', '委中（いちゅう）'),
    location: t('腘横纹中点', 'At the midpoint of the crease at the back of the knee', 'En el punto medio del pliegue de la parte posterior de la rodilla', '膝窩横紋の中点'),
    indications: t(
      '腰背痛、下肢痿痹、腹痛',
      'Pain of the back and lower back, weak legs, abdominal pain',
      'Dolor de espalda y lumbar, piernas débiles, dolor abdominal',
      '腰背部の痛み、下肢の麻痺、腹痛',
    ),
    actions: [act('intermittent', 2, 15, 45, 15)],
  },
  {
    code: 'GV20',
    meridian: 'GV',
    measure: false,
    treat: true,
    name: t('百会', 'Baihui (Hundred Convergences)', 'Baihui (Cien Reuniones)', '百会（ひゃくえ）'),
    location: t(
      '前发际正中直上5寸',
      '5 cun above the middle of the front hairline, on the midline of the head',
      '5 cun por encima del centro de la línea anterior del cabello, en la línea media de la cabeza',
      '前髪際の中央から上5寸、頭部正中線上',
    ),
    indications: t('头痛、眩晕、失眠、健忘', 'Headache, dizziness, insomnia, forgetfulness', 'Cefalea, mareo, insomnio, olvidos', '頭痛、めまい、不眠、物忘れ'),
    actions: [act('continuous', 2, 5, 20, 15)],
  },
  {
    code: 'CV4',
    meridian: 'CV',
    measure: false,
    treat: true,
    name: t('关元', 'Guanyuan (Origin Pass)', 'Guanyuan (Paso de la Fuente)', '関元（かんげん）'),
    location: t('脐中下3寸，前正中线上', 'On the front midline, 3 cun below the navel', 'En la línea media anterior, 3 cun por debajo del ombligo', '臍の下3寸、前正中線上'),
    indications: t('痛经、尿频、遗尿、虚弱乏力', 'Period pain, frequent urination, bedwetting, weakness', 'Dolor menstrual, micción frecuente, enuresis, debilidad', '月経痛、頻尿、夜尿、虚弱'),
    actions: [act('continuous', 2, 10, 35, 20)],
  },
  {
    code: 'CV12',
    meridian: 'CV',
    measure: false,
    treat: true,
    name: t('中脘', 'Zhongwan (Middle Cavity)', 'Zhongwan (Cavidad Media)', '中脘（ちゅうかん）'),
    location: t('脐中上4寸，前正中线上', 'On the front midline, 4 cun above the navel', 'En la línea media anterior, 4 cun por encima del ombligo', '臍の上4寸、前正中線上'),
    indications: t('胃痛、呕吐、腹胀、食欲不振', 'Stomach ache, vomiting, bloating, poor appetite', 'Dolor de estómago, vómitos, distensión, falta de apetito', '胃痛、嘔吐、腹部膨満、食欲不振'),
    actions: [act('continuous', 4, 10, 35, 20)],
  },
  {
    code: 'ST25',
    meridian: 'ST',
    measure: false,
    treat: true,
    name: t('天枢', 'Tianshu (Celestial Pivot)', 'Tianshu (Pivote Celeste)', '天枢（てんすう）'),
    location: t(
      '横平脐中，前正中线旁开2寸',
      'Level with the navel, 2 cun lateral to the front midline',
      'A la altura del ombligo, 2 cun por fuera de la línea media anterior',
      '臍と同じ高さ、前正中線の外方2寸',
    ),
    indications: t('便秘、泄泻、腹痛、腹胀', 'Constipation, diarrhoea, abdominal pain, bloating', 'Estreñimiento, diarrea, dolor abdominal, distensión', '便秘、下痢、腹痛、腹部膨満'),
    actions: [act('dense-sparse', 2, 10, 40, 20)],
  },
  {
    code: 'LU7',
    meridian: 'LU',
    measure: false,
    treat: true,
    name: t('列缺', 'Lieque (Broken Sequence)', 'Lieque (Secuencia Rota)', '列欠（れっけつ）'),
    location: t(
      '腕掌侧远端横纹上1.5寸，拇短伸肌腱与拇长展肌腱之间',
      '1.5 cun above the wrist crease, between the tendons of extensor pollicis brevis and abductor pollicis longus',
      '1,5 cun por encima del pliegue de la muñeca, entre los tendones del extensor corto y el abductor largo del pulgar',
      '手関節掌側横紋の上1.5寸、短母指伸筋腱と長母指外転筋腱の間',
    ),
    indications: t('咳嗽、咽喉痛、头痛、颈项强痛', 'Cough, sore throat, headache, stiff neck', 'Tos, dolor de garganta, cefalea, rigidez de nuca', '咳、咽頭痛、頭痛、項部のこわばり'),
    actions: [act('continuous', 2, 5, 25, 15)],
  },
  {
    code: 'TE5',
    meridian: 'TE',
    measure: false,
    treat: true,
    name: t('外关', 'Waiguan (Outer Pass)', 'Waiguan (Paso Exterior)', '外関（がいかん）'),
    location: t(
      '腕背侧远端横纹上2寸，尺骨与桡骨间隙中点',
      '2 cun above the dorsal wrist crease, midway between the radius and the ulna',
      '2 cun por encima del pliegue dorsal de la muñeca, a medio camino entre el radio y el cúbito',
      '手関節背側横紋の上2寸、橈骨と尺骨の骨間の中点',
    ),
    indications: t(
      '感冒发热、偏头痛、耳鸣、上肢疼痛',
      'Cold with fever, migraine, tinnitus, arm pain',
      'Resfriado con fiebre, migraña, acúfenos, dolor del brazo',
      'かぜの発熱、片頭痛、耳鳴り、上肢の痛み',
    ),
    actions: [act('continuous', 4, 10, 30, 15)],
  },
  {
    code: 'SP10',
    meridian: 'SP',
    measure: false,
    treat: true,
    name: t('血海', 'Xuehai (Sea of Blood)', 'Xuehai (Mar de Sangre)', '血海（けっかい）'),
    location: t(
      '髌底内侧端上2寸，股内侧肌隆起处',
      '2 cun above the inner upper corner of the kneecap, on the bulge of the vastus medialis',
      '2 cun por encima del ángulo superior interno de la rótula, sobre el relieve del vasto medial',
      '膝蓋骨底内端の上2寸、内側広筋の隆起部',
    ),
    indications: t(
      '月经不调、湿疹、皮肤瘙痒、膝痛',
      'Irregular periods, eczema, itchy skin, knee pain',
      'Menstruación irregular, eccema, picor de piel, dolor de rodilla',
      '月経不順、湿疹、皮膚のかゆみ、膝の痛み',
    ),
    actions: [act('dense-sparse', 2, 10, 35, 20)],
  },
];

export async function seed(tx: Tx) {
  for (const [i, p] of SEED_ACUPOINTS.entries()) {
    const [row] = await tx
      .insert(acupoints)
      .values({
        code: p.code,
        name: p.name,
        meridian: p.meridian,
        location: p.location,
        indications: p.indications,
        isMeasurementPoint: p.measure,
        isTreatmentPoint: p.treat,
        sort: (i + 1) * 10,
      })
      .returning({ id: acupoints.id });
    if (p.actions?.length) {
      await tx.insert(acupointActions).values(
        p.actions.map((a, j) => ({
          acupointId: row!.id,
          waveform: a.waveform,
          frequencyHz: a.frequency_hz,
          intensityMin: a.intensity_min,
          intensityMax: a.intensity_max,
          minutes: a.minutes,
          sort: j + 1,
        })),
      );
    }
  }
}
