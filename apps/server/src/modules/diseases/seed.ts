import type { L10n, Meridian, MeridianCondition } from '@app/contract';
import type { Tx } from '../../db/client';
import { diseaseAcupoints, diseaseCategories, diseases, diseaseSystems } from '../../db/schema';
import { acupointIdsByCode } from '../acupoints';
import { seededSystemIds } from '../systems';
import { together } from '../../db/together';

export const order = 30;

type Four = [string, string, string, string];
const l = ([zh, en, es, ja]: Four): L10n => ({ zh, en, es, ja });

/** "LU+ KI- HT~": + excess, - deficient, ~ left/right imbalanced. */
function pattern(text: string): MeridianCondition[] {
  return text.split(/\s+/).map((p) => ({
    meridian: p.slice(0, 2) as Meridian,
    status: p[2] === '+' ? 'excess' : p[2] === '-' ? 'deficient' : 'imbalanced',
  }));
}

interface SeedDisease {
  name: Four;
  description: Four;
  advice: Four;
  pattern: string;
  systems: string[];
  acupoints: string[];
}
interface SeedCategory {
  name: Four;
  diseases: SeedDisease[];
}

/**
 * A few dozen common conditions in seven categories. Texts are short, general and for wellness
 * guidance; the advice always leaves diagnosis to a doctor.
 */
export const SEED_DISEASES: SeedCategory[] = [
  {
    name: ['呼吸系统疾病', 'Respiratory diseases', 'Enfermedades respiratorias', '呼吸器疾患'],
    diseases: [
      {
        name: ['感冒', 'Common cold', 'Resfriado común', 'かぜ症候群'],
        description: [
          '外感所致的上呼吸道感染，表现为鼻塞、流涕、咽痛，有时发热。',
          'Upper-airway infection with a blocked or runny nose, sore throat and sometimes fever.',
          'Infección de las vías altas con congestión o goteo nasal, dolor de garganta y a veces fiebre.',
          '鼻づまり・鼻水・のどの痛み、時に発熱を伴う上気道の感染症。',
        ],
        advice: [
          '多休息、多饮温水，注意保暖；高热不退请就医。',
          'Rest, drink warm fluids and keep warm; see a doctor if a high fever persists.',
          'Descanse, beba líquidos templados y abríguese; consulte al médico si la fiebre alta persiste.',
          '安静にして温かい飲み物をとり、体を冷やさないこと。高熱が続く場合は受診を。',
        ],
        pattern: 'LU+ LI+',
        systems: ['upper-airways', 'immune'],
        acupoints: ['LI4', 'LU7', 'GB20', 'TE5'],
      },
      {
        name: ['慢性支气管炎', 'Chronic bronchitis', 'Bronquitis crónica', '慢性気管支炎'],
        description: [
          '反复咳嗽、咳痰，每年持续三个月以上。',
          'Recurring cough with phlegm lasting three months or more a year.',
          'Tos recurrente con flema durante tres meses o más al año.',
          '痰を伴う咳が年に3か月以上続く状態。',
        ],
        advice: [
          '戒烟，避免冷空气和粉尘，适度锻炼增强肺功能。',
          'Stop smoking, avoid cold air and dust, and exercise moderately to build lung capacity.',
          'Deje de fumar, evite el aire frío y el polvo y haga ejercicio moderado.',
          '禁煙し、冷気やほこりを避け、適度な運動で肺機能を高める。',
        ],
        pattern: 'LU- KI-',
        systems: ['lungs'],
        acupoints: ['LU9', 'LU7', 'ST36', 'KI3'],
      },
      {
        name: ['哮喘', 'Asthma', 'Asma', '喘息'],
        description: [
          '气道慢性炎症，发作时喘息、气短、胸闷。',
          'Chronic airway inflammation with bouts of wheezing, shortness of breath and chest tightness.',
          'Inflamación crónica de las vías respiratorias con crisis de sibilancias, falta de aire y opresión torácica.',
          '気道の慢性炎症で、発作時に喘鳴・息切れ・胸苦しさが起こる。',
        ],
        advice: [
          '远离过敏原，随身携带医生处方的药物，定期复诊。',
          'Avoid triggers, carry the medicine your doctor prescribed and attend regular check-ups.',
          'Evite los desencadenantes, lleve la medicación prescrita y acuda a revisiones periódicas.',
          'アレルゲンを避け、処方薬を携帯し、定期的に受診する。',
        ],
        pattern: 'LU- KI- LU~',
        systems: ['lungs', 'allergy'],
        acupoints: ['LU9', 'KI3', 'ST36', 'BL23'],
      },
      {
        name: ['过敏性鼻炎', 'Allergic rhinitis', 'Rinitis alérgica', 'アレルギー性鼻炎'],
        description: [
          '接触过敏原后出现打喷嚏、流清涕、鼻痒、鼻塞。',
          'Sneezing, a runny and itchy nose and congestion after contact with allergens.',
          'Estornudos, picor y goteo nasal y congestión tras el contacto con alérgenos.',
          'アレルゲンに触れるとくしゃみ・鼻水・鼻のかゆみ・鼻づまりが起こる。',
        ],
        advice: [
          '减少接触花粉和尘螨，外出戴口罩，用生理盐水洗鼻。',
          'Limit exposure to pollen and dust mites, wear a mask outdoors and rinse the nose with saline.',
          'Reduzca la exposición al polen y los ácaros, use mascarilla al aire libre y lave la nariz con suero.',
          '花粉やダニを避け、外出時はマスクを着用し、生理食塩水で鼻を洗う。',
        ],
        pattern: 'LU+ LI+ SP-',
        systems: ['upper-airways', 'allergy'],
        acupoints: ['LI4', 'LI11', 'LU7', 'ST36'],
      },
      {
        name: ['慢性咽炎', 'Chronic pharyngitis', 'Faringitis crónica', '慢性咽頭炎'],
        description: [
          '咽部异物感、干痒、轻度疼痛，反复发作。',
          'A recurring dry, itchy or slightly sore throat with a lump-like feeling.',
          'Garganta seca, con picor o ligero dolor y sensación de cuerpo extraño, de forma recurrente.',
          'のどの異物感・乾燥・かゆみ・軽い痛みを繰り返す。',
        ],
        advice: [
          '少吃辛辣，戒烟限酒，多饮水，避免过度用嗓。',
          'Avoid spicy food, smoking and alcohol, drink plenty of water and rest your voice.',
          'Evite el picante, el tabaco y el alcohol, beba mucha agua y descanse la voz.',
          '辛い物・喫煙・飲酒を控え、水分をとり、声を使いすぎない。',
        ],
        pattern: 'LU+ KI-',
        systems: ['upper-airways'],
        acupoints: ['LU7', 'KI3', 'LI4'],
      },
    ],
  },
  {
    name: ['心血管疾病', 'Cardiovascular diseases', 'Enfermedades cardiovasculares', '循環器疾患'],
    diseases: [
      {
        name: ['高血压', 'Hypertension', 'Hipertensión', '高血圧症'],
        description: [
          '动脉血压持续升高（≥140/90 mmHg），可伴头痛、头晕。',
          'Blood pressure persistently at or above 140/90 mmHg, sometimes with headache or dizziness.',
          'Presión arterial mantenida igual o superior a 140/90 mmHg, a veces con cefalea o mareo.',
          '血圧が持続的に140/90 mmHg以上で、頭痛やめまいを伴うことがある。',
        ],
        advice: [
          '低盐饮食，规律运动，控制体重，按医嘱服药并监测血压。',
          'Eat less salt, exercise regularly, control your weight, take prescribed medicine and monitor your blood pressure.',
          'Coma con poca sal, haga ejercicio, controle el peso, tome la medicación prescrita y vigile su tensión.',
          '減塩、定期的な運動、体重管理を行い、処方薬を服用して血圧を測る。',
        ],
        pattern: 'LR+ GB+ KI-',
        systems: ['blood-pressure', 'vessels'],
        acupoints: ['LR3', 'LI11', 'KI3', 'GB20'],
      },
      {
        name: ['心悸', 'Palpitations', 'Palpitaciones', '動悸'],
        description: [
          '自觉心跳加快、不规则或心慌不安。',
          'A feeling of a fast, irregular or pounding heartbeat.',
          'Sensación de latido rápido, irregular o intenso.',
          '心臓の鼓動が速い・不規則・強いと感じる状態。',
        ],
        advice: [
          '避免浓茶、咖啡和熬夜；伴胸痛或晕厥请立即就医。',
          'Avoid strong tea, coffee and late nights; seek care at once with chest pain or fainting.',
          'Evite el té fuerte, el café y trasnochar; acuda de inmediato si hay dolor torácico o desmayo.',
          '濃いお茶・コーヒー・夜更かしを避け、胸痛や失神があればすぐ受診を。',
        ],
        pattern: 'HT~ PC~',
        systems: ['heart'],
        acupoints: ['PC6', 'HT7'],
      },
      {
        name: ['冠心病', 'Coronary heart disease', 'Cardiopatía coronaria', '冠動脈疾患'],
        description: [
          '冠状动脉狭窄导致心肌供血不足，可出现胸闷、胸痛。',
          'Narrowed heart arteries reduce blood flow to the heart muscle, causing chest tightness or pain.',
          'El estrechamiento de las arterias coronarias reduce el riego del corazón y causa opresión o dolor torácico.',
          '冠動脈が狭くなり心筋への血流が不足し、胸苦しさや胸痛が起こる。',
        ],
        advice: [
          '遵医嘱用药，戒烟，清淡饮食；胸痛持续超过15分钟请呼叫急救。',
          'Take prescribed medicine, stop smoking and eat a light diet; call an ambulance for chest pain lasting over 15 minutes.',
          'Tome la medicación, deje de fumar y coma ligero; llame a urgencias si el dolor dura más de 15 minutos.',
          '処方薬を服用し、禁煙して薄味の食事を。胸痛が15分以上続けば救急車を。',
        ],
        pattern: 'HT- PC- KI-',
        systems: ['heart', 'vessels'],
        acupoints: ['PC6', 'HT7', 'ST36'],
      },
      {
        name: ['手脚冰凉', 'Poor circulation (cold hands and feet)', 'Mala circulación (manos y pies fríos)', '冷え性（末梢循環不良）'],
        description: [
          '四肢末端血液循环差，手脚发凉、麻木。',
          'Poor blood flow to the hands and feet, which feel cold or numb.',
          'Mala circulación en manos y pies, que se notan fríos o entumecidos.',
          '手足の末端の血流が悪く、冷えやしびれを感じる。',
        ],
        advice: [
          '注意保暖，适度运动，睡前温水泡脚。',
          'Keep warm, exercise moderately and soak your feet in warm water before bed.',
          'Abríguese, haga ejercicio moderado y remoje los pies en agua templada antes de dormir.',
          '体を温め、適度に運動し、寝る前に足湯をする。',
        ],
        pattern: 'PC- SP- KI-',
        systems: ['vessels'],
        acupoints: ['PC6', 'SP6', 'KI3', 'ST36'],
      },
      {
        name: ['低血压', 'Hypotension', 'Hipotensión', '低血圧症'],
        description: [
          '血压低于90/60 mmHg，易头晕、乏力，起立时明显。',
          'Blood pressure below 90/60 mmHg, with dizziness and tiredness, worse on standing up.',
          'Tensión inferior a 90/60 mmHg, con mareo y cansancio, peor al ponerse de pie.',
          '血圧が90/60 mmHg未満で、めまいやだるさがあり、立ち上がる時に強まる。',
        ],
        advice: [
          '起身宜缓慢，少量多餐，保证饮水和睡眠。',
          'Stand up slowly, eat small frequent meals and get enough fluids and sleep.',
          'Levántese despacio, haga comidas pequeñas y frecuentes y beba y duerma lo suficiente.',
          'ゆっくり立ち上がり、少量ずつ回数を分けて食べ、水分と睡眠を十分にとる。',
        ],
        pattern: 'HT- KI- SP-',
        systems: ['blood-pressure'],
        acupoints: ['GV20', 'ST36', 'KI3', 'PC6'],
      },
    ],
  },
  {
    name: ['消化系统疾病', 'Digestive diseases', 'Enfermedades digestivas', '消化器疾患'],
    diseases: [
      {
        name: ['慢性胃炎', 'Chronic gastritis', 'Gastritis crónica', '慢性胃炎'],
        description: [
          '胃黏膜慢性炎症，表现为上腹隐痛、饱胀、嗳气。',
          'Long-term inflammation of the stomach lining with dull upper-abdominal pain, fullness and belching.',
          'Inflamación crónica de la mucosa gástrica con dolor sordo en la parte alta del abdomen, plenitud y eructos.',
          '胃粘膜の慢性炎症で、上腹部の鈍痛・膨満感・げっぷがある。',
        ],
        advice: [
          '规律进食，少食多餐，避免辛辣、酒精和过冷过热食物。',
          'Eat regular, smaller meals and avoid spicy food, alcohol and very hot or cold dishes.',
          'Coma a horas regulares y en poca cantidad; evite el picante, el alcohol y lo muy frío o caliente.',
          '規則正しく少量ずつ食べ、辛い物・アルコール・熱すぎ冷たすぎる物を避ける。',
        ],
        pattern: 'ST+ SP-',
        systems: ['stomach'],
        acupoints: ['ST36', 'CV12', 'PC6'],
      },
      {
        name: ['功能性消化不良', 'Functional dyspepsia', 'Dispepsia funcional', '機能性ディスペプシア'],
        description: [
          '无器质性病变的餐后饱胀、早饱或上腹不适。',
          'Fullness after meals, feeling full early or upper-abdominal discomfort without an organic cause.',
          'Plenitud tras las comidas, saciedad precoz o molestias epigástricas sin causa orgánica.',
          '器質的な異常がないのに、食後の膨満感・早期満腹感・上腹部の不快感がある。',
        ],
        advice: [
          '细嚼慢咽，饭后散步，减轻精神压力。',
          'Eat slowly, take a walk after meals and reduce stress.',
          'Coma despacio, camine después de comer y reduzca el estrés.',
          'よく噛んでゆっくり食べ、食後に散歩し、ストレスを減らす。',
        ],
        pattern: 'SP- ST-',
        systems: ['stomach'],
        acupoints: ['ST36', 'CV12', 'SP6'],
      },
      {
        name: ['便秘', 'Constipation', 'Estreñimiento', '便秘'],
        description: [
          '排便次数减少（每周少于三次）、粪便干硬或排出困难。',
          'Fewer than three bowel movements a week, with hard stools or difficulty passing them.',
          'Menos de tres deposiciones a la semana, con heces duras o dificultad para evacuar.',
          '排便が週3回未満で、便が硬い、または出にくい。',
        ],
        advice: [
          '多吃蔬菜水果等膳食纤维，多饮水，养成定时排便习惯。',
          'Eat more fibre from vegetables and fruit, drink more water and keep a regular toilet routine.',
          'Coma más fibra de frutas y verduras, beba más agua y mantenga un horario regular.',
          '野菜や果物で食物繊維をとり、水分を多くとり、決まった時間に排便する習慣を。',
        ],
        pattern: 'LI+ ST+',
        systems: ['intestines'],
        acupoints: ['ST25', 'LI11', 'LI4', 'SP6'],
      },
      {
        name: ['肠易激综合征', 'Irritable bowel syndrome', 'Síndrome del intestino irritable', '過敏性腸症候群'],
        description: [
          '反复腹痛伴排便习惯改变（腹泻或便秘），常与情绪有关。',
          'Recurring abdominal pain with changing bowel habits (diarrhoea or constipation), often linked to stress.',
          'Dolor abdominal recurrente con cambios del ritmo intestinal (diarrea o estreñimiento), a menudo ligado al estrés.',
          '腹痛と便通異常（下痢や便秘）を繰り返し、ストレスと関係することが多い。',
        ],
        advice: [
          '记录饮食找出诱因，规律作息，学习放松技巧。',
          'Keep a food diary to find triggers, keep regular hours and learn relaxation techniques.',
          'Lleve un diario de comidas para hallar desencadenantes, mantenga horarios regulares y aprenda a relajarse.',
          '食事日記で誘因を探し、規則正しい生活とリラックス法を身につける。',
        ],
        pattern: 'LI~ LR+ SP-',
        systems: ['intestines', 'mood'],
        acupoints: ['ST25', 'ST36', 'LR3', 'SP6'],
      },
      {
        name: ['脂肪肝', 'Fatty liver', 'Hígado graso', '脂肪肝'],
        description: [
          '肝细胞内脂肪过度堆积，多与肥胖、饮酒和高脂饮食有关。',
          'Too much fat stored in the liver cells, mostly linked to obesity, alcohol and a fatty diet.',
          'Exceso de grasa en las células del hígado, ligado sobre todo a obesidad, alcohol y dieta grasa.',
          '肝細胞に脂肪が過剰にたまった状態で、肥満・飲酒・高脂肪食と関係が深い。',
        ],
        advice: [
          '限酒，减少油腻和甜食，坚持有氧运动，逐步减重。',
          'Limit alcohol, cut down fatty and sweet foods, do regular aerobic exercise and lose weight gradually.',
          'Limite el alcohol, reduzca grasas y dulces, haga ejercicio aeróbico y pierda peso poco a poco.',
          '飲酒を控え、脂っこい物や甘い物を減らし、有酸素運動で徐々に減量する。',
        ],
        pattern: 'LR+ GB+ SP-',
        systems: ['liver-gallbladder'],
        acupoints: ['LR3', 'GB34', 'ST36'],
      },
      {
        name: ['慢性胆囊炎', 'Chronic cholecystitis', 'Colecistitis crónica', '慢性胆のう炎'],
        description: [
          '胆囊慢性炎症，常见右上腹隐痛，油腻饮食后加重。',
          'Long-term inflammation of the gallbladder with dull right upper-abdominal pain, worse after fatty meals.',
          'Inflamación crónica de la vesícula con dolor sordo en el lado derecho alto del abdomen, peor tras comidas grasas.',
          '胆のうの慢性炎症で、右上腹部の鈍痛が脂っこい食事の後に強まる。',
        ],
        advice: [
          '低脂饮食，按时吃早餐；出现剧烈腹痛或发热请就医。',
          'Eat a low-fat diet and do not skip breakfast; see a doctor for severe pain or fever.',
          'Siga una dieta baja en grasa y no se salte el desayuno; consulte si hay dolor intenso o fiebre.',
          '低脂肪食にし、朝食を抜かない。激しい腹痛や発熱があれば受診を。',
        ],
        pattern: 'GB+ LR~',
        systems: ['liver-gallbladder'],
        acupoints: ['GB34', 'LR3', 'ST36'],
      },
    ],
  },
  {
    name: ['神经与精神', 'Nervous system and mental health', 'Sistema nervioso y salud mental', '神経・精神'],
    diseases: [
      {
        name: ['失眠', 'Insomnia', 'Insomnio', '不眠症'],
        description: [
          '入睡困难、易醒或早醒，次日精力不足。',
          'Difficulty falling or staying asleep, or waking too early, with poor energy the next day.',
          'Dificultad para conciliar o mantener el sueño, o despertar temprano, con poca energía al día siguiente.',
          '寝つきが悪い、途中で目覚める、早朝に目覚めるなどで、翌日に活力が出ない。',
        ],
        advice: [
          '固定作息时间，睡前避免手机和咖啡因，适度运动。',
          'Keep fixed sleep hours, avoid screens and caffeine before bed and exercise moderately.',
          'Mantenga horarios fijos, evite pantallas y cafeína antes de dormir y haga ejercicio moderado.',
          '就寝・起床時刻を一定にし、寝る前のスマホやカフェインを避け、適度に運動する。',
        ],
        pattern: 'HT+ PC+ KI-',
        systems: ['brain-sleep'],
        acupoints: ['HT7', 'PC6', 'SP6', 'GV20'],
      },
      {
        name: ['紧张性头痛', 'Tension headache', 'Cefalea tensional', '緊張型頭痛'],
        description: [
          '头部两侧或后枕部紧箍样、压迫样疼痛，常与疲劳和压力有关。',
          'A tight, pressing pain around the head or at the back of the head, often from fatigue and stress.',
          'Dolor opresivo alrededor de la cabeza o en la nuca, a menudo por cansancio y estrés.',
          '頭の両側や後頭部の締めつけられるような痛みで、疲労やストレスと関係する。',
        ],
        advice: [
          '注意劳逸结合，放松颈肩肌肉，保持正确坐姿。',
          'Balance work and rest, relax the neck and shoulder muscles and keep a good sitting posture.',
          'Alterne trabajo y descanso, relaje cuello y hombros y mantenga una buena postura.',
          '仕事と休息のバランスをとり、首や肩の筋肉をほぐし、正しい姿勢を保つ。',
        ],
        pattern: 'GB+ BL+',
        systems: ['neck-shoulders', 'peripheral-nerves'],
        acupoints: ['GB20', 'LI4', 'GV20'],
      },
      {
        name: ['偏头痛', 'Migraine', 'Migraña', '片頭痛'],
        description: [
          '反复发作的单侧搏动性头痛，可伴恶心、畏光。',
          'Recurring throbbing headache on one side, sometimes with nausea and sensitivity to light.',
          'Cefalea pulsátil recurrente en un lado, a veces con náuseas y sensibilidad a la luz.',
          '片側のズキズキする頭痛を繰り返し、吐き気や光過敏を伴うことがある。',
        ],
        advice: [
          '记录并避开诱因（睡眠不足、饮酒、强光），发作时在暗处休息。',
          'Note and avoid triggers (lack of sleep, alcohol, bright light); rest in a dark room during attacks.',
          'Anote y evite los desencadenantes (falta de sueño, alcohol, luz intensa); descanse a oscuras durante las crisis.',
          '誘因（睡眠不足・飲酒・強い光）を記録して避け、発作時は暗い部屋で休む。',
        ],
        pattern: 'GB+ LR+ TE+',
        systems: ['brain-sleep', 'peripheral-nerves'],
        acupoints: ['GB20', 'TE5', 'LR3', 'LI4'],
      },
      {
        name: ['焦虑状态', 'Anxiety', 'Ansiedad', '不安状態'],
        description: [
          '持续紧张、担忧、坐立不安，可伴心慌、出汗。',
          'Ongoing tension, worry and restlessness, sometimes with a racing heart and sweating.',
          'Tensión, preocupación e inquietud persistentes, a veces con taquicardia y sudoración.',
          '緊張・心配・落ち着きのなさが続き、動悸や発汗を伴うことがある。',
        ],
        advice: [
          '规律运动，练习深呼吸或冥想；症状影响生活时寻求专业帮助。',
          'Exercise regularly and practise deep breathing or meditation; seek professional help if it affects daily life.',
          'Haga ejercicio, practique respiración profunda o meditación; busque ayuda profesional si afecta a su vida diaria.',
          '定期的に運動し、深呼吸や瞑想を行う。生活に支障があれば専門家に相談を。',
        ],
        pattern: 'HT+ PC+ LR+',
        systems: ['mood', 'brain-sleep'],
        acupoints: ['HT7', 'PC6', 'LR3', 'GV20'],
      },
      {
        name: ['情绪低落', 'Low mood', 'Estado de ánimo bajo', '気分の落ち込み'],
        description: [
          '持续情绪低落、兴趣减退、精力不足。',
          'Persistently low spirits, loss of interest and lack of energy.',
          'Ánimo decaído persistente, pérdida de interés y falta de energía.',
          '気分の落ち込み、興味の低下、気力の不足が続く。',
        ],
        advice: [
          '多晒太阳、多与人交流、保持运动；持续两周以上请就医。',
          'Get daylight, stay in touch with people and keep active; see a doctor if it lasts over two weeks.',
          'Tome el sol, relaciónese y manténgase activo; consulte si dura más de dos semanas.',
          '日光を浴び、人と交流し、体を動かす。2週間以上続く場合は受診を。',
        ],
        pattern: 'HT- LR~ SP-',
        systems: ['mood'],
        acupoints: ['LR3', 'HT7', 'GV20', 'ST36'],
      },
      {
        name: ['慢性疲劳', 'Chronic fatigue', 'Fatiga crónica', '慢性疲労'],
        description: [
          '休息后不能缓解的持续疲乏，常伴睡眠差、注意力下降。',
          'Persistent tiredness not relieved by rest, often with poor sleep and poor concentration.',
          'Cansancio persistente que no mejora con el descanso, con mal sueño y poca concentración.',
          '休んでも回復しない疲労が続き、睡眠不良や集中力低下を伴う。',
        ],
        advice: [
          '循序渐进增加活动量，均衡饮食，保证睡眠。',
          'Increase activity step by step, eat a balanced diet and get enough sleep.',
          'Aumente la actividad poco a poco, coma equilibrado y duerma lo suficiente.',
          '活動量を少しずつ増やし、バランスのよい食事と十分な睡眠を。',
        ],
        pattern: 'SP- KI- LU-',
        systems: ['brain-sleep', 'kidneys'],
        acupoints: ['ST36', 'CV4', 'KI3', 'GV20'],
      },
    ],
  },
  {
    name: ['骨骼肌肉疾病', 'Musculoskeletal disorders', 'Trastornos musculoesqueléticos', '筋骨格系疾患'],
    diseases: [
      {
        name: ['颈椎病', 'Cervical spondylosis', 'Espondilosis cervical', '頸椎症'],
        description: [
          '颈椎退行性改变，引起颈肩痛、僵硬，甚至上肢麻木。',
          'Wear of the neck vertebrae causing neck and shoulder pain, stiffness and even numb arms.',
          'Desgaste de las vértebras cervicales que causa dolor y rigidez de cuello y hombros, incluso brazos entumecidos.',
          '頸椎の退行性変化により、首や肩の痛み・こわばり、腕のしびれが起こる。',
        ],
        advice: [
          '避免长时间低头，每小时活动颈部，选择合适高度的枕头。',
          'Avoid looking down for long, move your neck every hour and choose a pillow of the right height.',
          'Evite mirar hacia abajo mucho tiempo, mueva el cuello cada hora y use una almohada de altura adecuada.',
          '長時間うつむかず、1時間ごとに首を動かし、高さの合った枕を使う。',
        ],
        pattern: 'SI+ TE+ GB+',
        systems: ['neck-shoulders'],
        acupoints: ['GB20', 'LI11', 'TE5', 'LI4'],
      },
      {
        name: ['肩周炎', 'Frozen shoulder', 'Hombro congelado', '五十肩（肩関節周囲炎）'],
        description: [
          '肩关节疼痛和活动受限，夜间加重，多见于五十岁左右。',
          'Shoulder pain and stiffness that limit movement, worse at night, common around the age of fifty.',
          'Dolor y rigidez del hombro que limitan el movimiento, peor por la noche, frecuente hacia los cincuenta años.',
          '肩の痛みと動きの制限があり、夜間に強まる。50歳前後に多い。',
        ],
        advice: [
          '坚持温和的肩部拉伸（如手指爬墙练习），注意肩部保暖。',
          'Keep up gentle shoulder stretches (such as walking the fingers up a wall) and keep the shoulder warm.',
          'Haga estiramientos suaves del hombro (como subir los dedos por la pared) y manténgalo abrigado.',
          '壁に指をはわせるなどの穏やかなストレッチを続け、肩を冷やさない。',
        ],
        pattern: 'LI~ SI~ TE+',
        systems: ['neck-shoulders', 'joints'],
        acupoints: ['LI11', 'TE5', 'LI4', 'GB34'],
      },
      {
        name: ['腰肌劳损', 'Lumbar muscle strain', 'Lumbalgia por sobrecarga', '腰痛（腰部筋膜症）'],
        description: [
          '腰部肌肉慢性损伤，表现为腰部酸痛，劳累后加重。',
          'Chronic strain of the lower-back muscles, with an aching back that worsens after exertion.',
          'Lesión crónica de los músculos lumbares, con dolor sordo que empeora tras el esfuerzo.',
          '腰の筋肉の慢性的な損傷で、だるい痛みが疲労後に強まる。',
        ],
        advice: [
          '避免久坐久站和弯腰搬重物，加强腰背肌锻炼。',
          'Avoid long sitting or standing and lifting with a bent back; strengthen the back muscles.',
          'Evite estar mucho tiempo sentado o de pie y cargar peso agachado; fortalezca la espalda.',
          '長時間の座位や立位、前かがみでの重い物の持ち上げを避け、背筋を鍛える。',
        ],
        pattern: 'BL+ KI-',
        systems: ['lower-back'],
        acupoints: ['BL23', 'BL40', 'KI3'],
      },
      {
        name: ['膝骨关节炎', 'Knee osteoarthritis', 'Artrosis de rodilla', '変形性膝関節症'],
        description: [
          '膝关节软骨退变，表现为膝痛、上下楼梯困难。',
          'Wear of the knee cartilage with knee pain and difficulty on stairs.',
          'Desgaste del cartílago de la rodilla con dolor y dificultad para subir y bajar escaleras.',
          '膝関節の軟骨がすり減り、膝の痛みや階段の昇降困難が起こる。',
        ],
        advice: [
          '控制体重，减少爬山爬楼，做股四头肌力量训练。',
          'Control your weight, limit climbing hills and stairs and strengthen the thigh muscles.',
          'Controle el peso, limite cuestas y escaleras y fortalezca los cuádriceps.',
          '体重を管理し、山登りや階段を控え、太ももの筋力を鍛える。',
        ],
        pattern: 'ST- SP- GB+',
        systems: ['joints'],
        acupoints: ['ST36', 'GB34', 'SP10'],
      },
    ],
  },
  {
    name: ['泌尿生殖与妇科', 'Urogenital and gynaecological', 'Urogenitales y ginecológicas', '泌尿生殖器・婦人科'],
    diseases: [
      {
        name: ['痛经', 'Period pain (dysmenorrhoea)', 'Dolor menstrual (dismenorrea)', '月経困難症'],
        description: [
          '经期或经期前后下腹疼痛，可伴腰酸、恶心。',
          'Lower-abdominal pain before or during periods, sometimes with backache and nausea.',
          'Dolor en la parte baja del abdomen antes o durante la regla, a veces con dolor lumbar y náuseas.',
          '月経前や月経中の下腹部痛で、腰のだるさや吐き気を伴うことがある。',
        ],
        advice: [
          '经期注意保暖，避免生冷饮食，适度热敷下腹部。',
          'Keep warm during periods, avoid cold food and drinks and apply gentle heat to the lower abdomen.',
          'Abríguese durante la regla, evite alimentos y bebidas frías y aplique calor suave en el bajo vientre.',
          '月経中は体を冷やさず、冷たい飲食を避け、下腹部を温める。',
        ],
        pattern: 'LR+ SP~',
        systems: ['female'],
        acupoints: ['SP6', 'CV4', 'LR3', 'SP10'],
      },
      {
        name: ['月经不调', 'Irregular periods', 'Menstruación irregular', '月経不順'],
        description: [
          '月经周期、经量或经期长短异常。',
          'Periods that are irregular in timing, flow or length.',
          'Reglas irregulares en el ciclo, la cantidad o la duración.',
          '月経の周期・量・期間の異常。',
        ],
        advice: [
          '规律作息，保持情绪稳定，避免过度节食；长期异常请就诊。',
          'Keep regular hours, manage stress and avoid crash diets; see a doctor if it persists.',
          'Mantenga horarios regulares, controle el estrés y evite dietas extremas; consulte si persiste.',
          '規則正しい生活とストレス管理を行い、過度なダイエットを避ける。続く場合は受診を。',
        ],
        pattern: 'LR~ SP- KI-',
        systems: ['female'],
        acupoints: ['SP6', 'SP10', 'LR3', 'BL23'],
      },
      {
        name: ['更年期综合征', 'Menopausal syndrome', 'Síndrome menopáusico', '更年期障害'],
        description: [
          '绝经前后出现潮热、出汗、失眠、情绪波动等。',
          'Hot flushes, sweating, poor sleep and mood swings around the menopause.',
          'Sofocos, sudoración, mal sueño y cambios de humor en torno a la menopausia.',
          '閉経前後のほてり・発汗・不眠・気分の変動など。',
        ],
        advice: [
          '保持规律运动和社交，饮食清淡，必要时咨询妇科医生。',
          'Stay active and sociable, eat lightly and consult a gynaecologist if needed.',
          'Manténgase activa y sociable, coma ligero y consulte al ginecólogo si es necesario.',
          '運動と交流を続け、あっさりした食事を心がけ、必要なら婦人科に相談を。',
        ],
        pattern: 'KI- LR+ HT+',
        systems: ['female', 'mood'],
        acupoints: ['KI3', 'SP6', 'LR3', 'HT7'],
      },
      {
        name: ['尿频', 'Overactive bladder', 'Vejiga hiperactiva', '過活動膀胱（頻尿）'],
        description: [
          '尿意频繁、急迫，夜尿增多，但无尿路感染。',
          'A frequent, urgent need to pass urine, also at night, without a urinary infection.',
          'Necesidad frecuente y urgente de orinar, también de noche, sin infección urinaria.',
          '尿路感染がないのに、頻繁で急な尿意があり、夜間も増える。',
        ],
        advice: [
          '睡前两小时少饮水，减少咖啡和酒，练习盆底肌训练。',
          'Drink less in the two hours before bed, cut down coffee and alcohol and do pelvic-floor exercises.',
          'Beba menos en las dos horas antes de dormir, reduzca café y alcohol y haga ejercicios del suelo pélvico.',
          '寝る前2時間は水分を控え、コーヒーや酒を減らし、骨盤底筋体操を行う。',
        ],
        pattern: 'BL~ KI- SP-',
        systems: ['bladder', 'kidneys'],
        acupoints: ['CV4', 'SP6', 'BL23', 'KI3'],
      },
      {
        name: ['慢性前列腺炎', 'Chronic prostatitis', 'Prostatitis crónica', '慢性前立腺炎'],
        description: [
          '会阴部或下腹部不适，伴尿频、尿急。',
          'Discomfort in the perineum or lower abdomen with frequent or urgent urination.',
          'Molestias en el periné o bajo vientre con micción frecuente o urgente.',
          '会陰部や下腹部の不快感と、頻尿・尿意切迫を伴う。',
        ],
        advice: [
          '避免久坐和憋尿，忌酒和辛辣，规律适度运动。',
          'Avoid long sitting and holding urine, avoid alcohol and spicy food, and exercise regularly.',
          'Evite estar mucho sentado y aguantar la orina, evite alcohol y picante y haga ejercicio.',
          '長時間の座位や排尿の我慢を避け、酒や辛い物を控え、適度に運動する。',
        ],
        pattern: 'KI- LR+ BL+',
        systems: ['male', 'bladder'],
        acupoints: ['CV4', 'SP6', 'LR3', 'KI3'],
      },
    ],
  },
  {
    name: ['内分泌与代谢', 'Endocrine and metabolic', 'Endocrinas y metabólicas', '内分泌・代謝'],
    diseases: [
      {
        name: ['2型糖尿病', 'Type 2 diabetes', 'Diabetes tipo 2', '2型糖尿病'],
        description: [
          '胰岛素作用不足导致血糖升高，可有口渴、多尿、乏力。',
          'High blood sugar because insulin works poorly, with thirst, frequent urination and tiredness.',
          'Glucemia alta porque la insulina actúa mal, con sed, micción frecuente y cansancio.',
          'インスリンの働きが不十分で血糖が高くなり、口渇・多尿・だるさが出る。',
        ],
        advice: [
          '控制总热量，规律运动，遵医嘱用药并监测血糖。',
          'Control total calories, exercise regularly, take prescribed medicine and monitor your blood sugar.',
          'Controle las calorías, haga ejercicio, tome la medicación prescrita y vigile su glucosa.',
          '総摂取カロリーを管理し、定期的に運動し、処方薬を服用して血糖を測る。',
        ],
        pattern: 'SP- KI- ST+',
        systems: ['blood-sugar'],
        acupoints: ['ST36', 'SP6', 'KI3'],
      },
      {
        name: ['甲状腺功能亢进', 'Hyperthyroidism', 'Hipertiroidismo', '甲状腺機能亢進症'],
        description: [
          '甲状腺激素分泌过多，表现为心慌、怕热、多汗、消瘦。',
          'Too much thyroid hormone, causing palpitations, heat intolerance, sweating and weight loss.',
          'Exceso de hormona tiroidea, con palpitaciones, intolerancia al calor, sudoración y adelgazamiento.',
          '甲状腺ホルモンが過剰になり、動悸・暑がり・多汗・体重減少が起こる。',
        ],
        advice: [
          '遵医嘱治疗，定期复查甲状腺功能，避免高碘饮食。',
          'Follow your treatment, have thyroid tests regularly and avoid iodine-rich food.',
          'Siga el tratamiento, hágase controles tiroideos periódicos y evite alimentos ricos en yodo.',
          '治療を続け、定期的に甲状腺機能を検査し、ヨウ素の多い食品を避ける。',
        ],
        pattern: 'TE+ HT+ LR+',
        systems: ['thyroid'],
        acupoints: ['PC6', 'HT7', 'LR3', 'TE5'],
      },
      {
        name: ['肥胖', 'Obesity', 'Obesidad', '肥満症'],
        description: [
          '体内脂肪过多并影响健康；体重指数（BMI）界值因标准而异（世卫组织30，中国28，日本25）。',
          'Excess body fat that harms health; the body-mass-index threshold depends on the standard (WHO 30, China 28, Japan 25).',
          'Exceso de grasa corporal que perjudica la salud; el umbral del índice de masa corporal depende del criterio (OMS 30, China 28, Japón 25).',
          '健康に影響するほど体脂肪が多い状態。BMIの基準は国により異なる（WHO 30、中国 28、日本 25）。',
        ],
        advice: [
          '减少高热量食物，增加日常活动，每周减重不超过1公斤。',
          'Cut high-calorie foods, move more every day and aim to lose no more than 1 kg a week.',
          'Reduzca los alimentos calóricos, muévase más cada día y no pierda más de 1 kg por semana.',
          '高カロリー食品を減らし、日常の活動量を増やし、減量は週1kg以内に。',
        ],
        pattern: 'SP- ST+',
        systems: ['blood-sugar', 'stomach'],
        acupoints: ['ST25', 'ST36', 'SP6', 'CV12'],
      },
    ],
  },
];

export async function seed(tx: Tx) {
  const allCodes = [...new Set(SEED_DISEASES.flatMap((c) => c.diseases.flatMap((d) => d.acupoints)))];
  const [acupointIds, systemIds] = await together(tx, [() => acupointIdsByCode(tx, allCodes), () => seededSystemIds(tx)]);
  for (const [i, c] of SEED_DISEASES.entries()) {
    const [cat] = await tx
      .insert(diseaseCategories)
      .values({ name: l(c.name), sort: (i + 1) * 10 })
      .returning({ id: diseaseCategories.id });
    const rows = await tx
      .insert(diseases)
      .values(
        c.diseases.map((d, j) => ({
          categoryId: cat!.id,
          name: l(d.name),
          description: l(d.description),
          advice: l(d.advice),
          pattern: pattern(d.pattern),
          sort: (j + 1) * 10,
        })),
      )
      .returning({ id: diseases.id });
    const links = c.diseases.map((d, j) => ({ id: rows[j]!.id, d }));
    const sys = links.flatMap(({ id, d }) => d.systems.map((k, n) => ({ diseaseId: id, systemId: systemIds.get(k)!, sort: n + 1 }))).filter((x) => x.systemId);
    const acu = links.flatMap(({ id, d }) => d.acupoints.map((code, n) => ({ diseaseId: id, acupointId: acupointIds.get(code)!, sort: n + 1 }))).filter((x) => x.acupointId);
    if (sys.length) await tx.insert(diseaseSystems).values(sys);
    if (acu.length) await tx.insert(diseaseAcupoints).values(acu);
  }
}
