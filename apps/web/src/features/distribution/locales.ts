import { defineLocales } from '../../lib/i18n';

export default defineLocales({
  en: {
    col: { time: 'Time', from: 'From', to: 'To', devices: 'Devices', operator: 'Operator', remark: 'Remark' },
    stock: 'Platform stock',
    filter: { institution: 'Institution', institutionPlaceholder: 'From or to', serial: 'Serial', date: 'Date' },
    noData: 'No distribution yet',
  },
  zh: {
    col: { time: '时间', from: '来源', to: '目标', devices: '设备', operator: '操作人', remark: '备注' },
    stock: '平台库存',
    filter: { institution: '机构', institutionPlaceholder: '来源或目标', serial: '序列号', date: '日期' },
    noData: '暂无分配记录',
  },
  es: {
    col: { time: 'Fecha', from: 'Origen', to: 'Destino', devices: 'Equipos', operator: 'Operador', remark: 'Observación' },
    stock: 'Stock de la plataforma',
    filter: { institution: 'Institución', institutionPlaceholder: 'Origen o destino', serial: 'Número de serie', date: 'Fecha' },
    noData: 'Aún no hay distribuciones',
  },
  ja: {
    col: { time: '日時', from: '移動元', to: '移動先', devices: '機器', operator: '操作者', remark: '備考' },
    stock: 'プラットフォーム在庫',
    filter: { institution: '機関', institutionPlaceholder: '移動元または移動先', serial: 'シリアル番号', date: '日付' },
    noData: '配布記録はまだありません',
  },
});
