import { t, label } from '../../lib/labels';

/** Column titles and values of the exported files, in the reader's language. Times are UTC. */
export const LABELS = {
  number: t('检测编号', 'Inspection number', 'Número de inspección', '検査番号'),
  time: t('检测时间 (UTC)', 'Measured at (UTC)', 'Medido el (UTC)', '測定日時 (UTC)'),
  person: t('受检者', 'Person', 'Persona', '受検者'),
  doctor: t('医生', 'Doctor', 'Médico', '医師'),
  device: t('设备', 'Device', 'Equipo', '機器'),
  institution: t('机构', 'Institution', 'Institución', '機関'),
  worstLevel: t('最差系统等级', 'Worst system level', 'Peor nivel de sistema', '最も悪い系統レベル'),
  topRisk: t('最高风险', 'Top risk', 'Riesgo máximo', '最高リスク'),
  topDisease: t('风险最高的疾病', 'Disease of the top risk', 'Enfermedad de mayor riesgo', '最もリスクの高い疾患'),
  version: t('分析版本', 'Analysis version', 'Versión del análisis', '分析バージョン'),
  sheet: t('检测记录', 'Inspections', 'Inspecciones', '検査記録'),
  levels: {
    normal: t('正常', 'Normal', 'Normal', '正常'),
    attention: t('关注', 'Attention', 'Atención', '注意'),
    abnormal: t('异常', 'Abnormal', 'Anormal', '異常'),
  },
  risks: {
    high: t('高', 'High', 'Alto', '高'),
    medium: t('中', 'Medium', 'Medio', '中'),
    low: t('低', 'Low', 'Bajo', '低'),
    none: t('无', 'None', 'Ninguno', 'なし'),
  },
};

/** A label in a language. */
export { label };
