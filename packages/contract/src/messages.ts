import type { L10n, Lang } from './i18n';
import { pickText } from './i18n';

const t = (zh: string, en: string, es: string, ja: string): L10n => ({ zh, en, es, ja });

/** Messages the server answers with (code 400, 998, 999), in the four languages. */
export const MESSAGES = {
  badCredentials: t('用户名或密码错误', 'Incorrect username or password', 'Usuario o contraseña incorrectos', 'ユーザー名またはパスワードが正しくありません'),
  accountDisabled: t(
    '账号已停用，请联系管理员',
    'This account is disabled; contact your administrator',
    'Esta cuenta está desactivada; contacte con su administrador',
    'このアカウントは無効です。管理者に連絡してください',
  ),
  tooManyAttempts: t(
    '登录失败次数过多，请 {minutes} 分钟后再试',
    'Too many failed sign-in attempts; try again in {minutes} minutes',
    'Demasiados intentos fallidos; inténtelo de nuevo en {minutes} minutos',
    'ログインの失敗が多すぎます。{minutes} 分後にもう一度お試しください',
  ),
  loginExpired: t(
    '登录已过期，请重新登录',
    'Your session has expired; please sign in again',
    'Su sesión ha caducado; inicie sesión de nuevo',
    'セッションの有効期限が切れました。再度ログインしてください',
  ),
  overdue: t(
    '机构已到期，请使用激活码续期',
    "Your institution's term has expired; redeem an activation code to continue",
    'El plazo de su institución ha vencido; canjee un código de activación para continuar',
    '機関の有効期限が切れました。アクティベーションコードで更新してください',
  ),
  forbidden: t('没有权限执行此操作', 'You do not have permission for this action', 'No tiene permiso para esta acción', 'この操作を行う権限がありません'),
  institutionMismatch: t('机构标识与当前登录不符', 'The institution field does not match your session', 'El campo de institución no coincide con su sesión', '機関IDが現在のログインと一致しません'),
  invalidInput: t('输入有误：{detail}', 'Invalid input: {detail}', 'Entrada no válida: {detail}', '入力が正しくありません：{detail}'),
  notFound: t('记录不存在', 'The record does not exist', 'El registro no existe', 'レコードが存在しません'),
  passwordTooShort: t('密码长度不能少于 {min} 位', 'The password must have at least {min} characters', 'La contraseña debe tener al menos {min} caracteres', 'パスワードは {min} 文字以上必要です'),
  passwordEmpty: t('密码不能为空', 'The password cannot be empty', 'La contraseña no puede estar vacía', 'パスワードを入力してください'),
  fieldNotEditable: t('该字段不可修改', 'This field cannot be changed', 'Este campo no se puede modificar', 'この項目は変更できません'),
  conflict: t('与已有记录冲突（重复）', 'This conflicts with an existing record (duplicate)', 'Entra en conflicto con un registro existente (duplicado)', '既存のレコードと重複しています'),
  brokenReference: t(
    '引用的记录不存在或仍被其他记录使用',
    'A referenced record does not exist, or the record is still in use',
    'Un registro referenciado no existe o el registro aún está en uso',
    '参照先のレコードが存在しないか、まだ使用中です',
  ),
  internal: t('服务器错误，请稍后再试', 'Server error; please try again later', 'Error del servidor; inténtelo más tarde', 'サーバーエラーです。しばらくしてから再度お試しください'),
  routeNotFound: t('接口不存在', 'No such API call', 'No existe esa llamada a la API', 'そのAPIは存在しません'),
  duplicate: t('{field} 已存在', '{field} already exists', '{field} ya existe', '{field} は既に存在します'),
  inUse: t('无法删除：仍被 {holder} 使用', 'Cannot delete: still used by {holder}', 'No se puede eliminar: aún lo usa {holder}', '削除できません：{holder} で使用中です'),
  lastSuperAdmin: t(
    '至少需要保留一个启用的超级管理员',
    'At least one enabled super-admin must remain',
    'Debe quedar al menos un superadministrador activo',
    '有効なスーパー管理者を少なくとも1人残す必要があります',
  ),
  // Platform access control (/jurisdiction)
  menuHasChildren: t(
    '无法删除：该节点下还有 {count} 个子节点，请先删除或移走它们',
    'Cannot delete: this node still has {count} child nodes; delete or move them first',
    'No se puede eliminar: este nodo aún tiene {count} nodos hijos; elimínelos o muévalos primero',
    '削除できません：このノードには子ノードが {count} 個あります。先に削除または移動してください',
  ),
  menuBuiltin: t(
    '该节点属于系统权限表：不能删除，也不能修改标识、类型或上级；可修改标题、图标、排序和隐藏',
    'This node belongs to the built-in permission table: it cannot be deleted and its sign, type and parent cannot change; its title, icon, order and hidden flag can',
    'Este nodo pertenece a la tabla de permisos integrada: no se puede eliminar ni cambiar su identificador, tipo o padre; sí su título, icono, orden y visibilidad',
    'このノードは組み込みの権限表に属します。削除や識別子・種類・親の変更はできません（タイトル、アイコン、順序、非表示は変更可）',
  ),
  menuButtonParent: t('按钮必须位于页面之下', 'A button must be placed under a page', 'Un botón debe estar bajo una página', 'ボタンはページの下に置く必要があります'),
  menuPageParent: t(
    '页面只能位于目录之下或顶层',
    'A page must be placed under a directory or at the top level',
    'Una página debe estar bajo un directorio o en el nivel superior',
    'ページはディレクトリの下か最上位に置く必要があります',
  ),
  menuDirectoryParent: t(
    '目录只能位于目录之下或顶层',
    'A directory must be placed under a directory or at the top level',
    'Un directorio debe estar bajo otro directorio o en el nivel superior',
    'ディレクトリはディレクトリの下か最上位に置く必要があります',
  ),
  menuCycle: t(
    '不能把节点移到它自己或它的下级之下',
    'A node cannot be moved under itself or one of its descendants',
    'Un nodo no puede moverse bajo sí mismo ni bajo uno de sus descendientes',
    'ノードを自身またはその子孫の下に移動することはできません',
  ),
  menuChildrenType: t('该节点的子节点与新类型不符', "The node's children do not fit the new type", 'Los hijos del nodo no encajan con el nuevo tipo', 'このノードの子ノードは新しい種類に合いません'),
  menuLockout: t(
    '不能隐藏菜单编辑按钮：否则将无人能恢复',
    "The menu editor's edit button cannot be hidden: nobody could undo it",
    'El botón de edición del editor de menús no se puede ocultar: nadie podría deshacerlo',
    'メニュー編集ボタンは非表示にできません：誰も元に戻せなくなります',
  ),
  unknownMenus: t('菜单节点不存在：{ids}', 'Unknown menu nodes: {ids}', 'Nodos de menú desconocidos: {ids}', '存在しないメニューノード：{ids}'),
  superRoleFixed: t(
    '超级管理员角色拥有全部菜单和按钮：不能删除、停用或修改其权限',
    'The super-admin role holds every menu and button: it cannot be deleted, disabled or have its grants changed',
    'El rol de superadministrador tiene todos los menús y botones: no se puede eliminar, desactivar ni cambiar sus permisos',
    'スーパー管理者ロールはすべてのメニューとボタンを持ちます。削除、無効化、権限の変更はできません',
  ),
  roleInUse: t(
    '无法删除：仍有 {count} 个管理员使用该角色',
    'Cannot delete: {count} admin users still hold this role',
    'No se puede eliminar: {count} administradores aún tienen este rol',
    '削除できません：このロールを使用している管理者が {count} 人います',
  ),
  roleMissing: t('角色不存在', 'The role does not exist', 'El rol no existe', 'ロールが存在しません'),
  ownRole: t('不能修改自己所属的角色', 'You cannot change the role you hold yourself', 'No puede cambiar el rol que usted mismo tiene', '自分が持つロールは変更できません'),
  grantNotHeld: t(
    '不能授予自己没有的菜单或按钮',
    'You cannot grant menus or buttons you do not hold yourself',
    'No puede conceder menús o botones que usted mismo no tiene',
    '自分が持っていないメニューやボタンは付与できません',
  ),
  superOnly: t(
    '只有超级管理员才能分配超级管理员角色或管理超级管理员账号',
    'Only a super-admin can assign the super-admin role or manage super-admin accounts',
    'Solo un superadministrador puede asignar el rol de superadministrador o gestionar sus cuentas',
    'スーパー管理者ロールの割り当てやスーパー管理者アカウントの管理はスーパー管理者のみが行えます',
  ),
  selfDelete: t('不能删除自己的账号', 'You cannot delete your own account', 'No puede eliminar su propia cuenta', '自分のアカウントは削除できません'),
  viewAsNotSuper: t(
    '只有超级管理员才能切换角色查看',
    'Only a super-admin can view the console as another role',
    'Solo un superadministrador puede ver la consola como otro rol',
    '他のロールとして表示できるのはスーパー管理者のみです',
  ),
  viewAsSuperRole: t('您已拥有该角色', 'You already hold this role', 'Ya tiene este rol', 'このロールは既に持っています'),
  viewAsViewing: t('请先返回自己的角色', 'Return to your own role first', 'Vuelva primero a su propio rol', '先に自分のロールに戻ってください'),
  viewAsRoleDisabled: t(
    '该角色已停用，不授予任何权限：请先启用',
    'This role is disabled and grants nothing: enable it first',
    'Este rol está desactivado y no concede nada: actívelo primero',
    'このロールは無効で、何も付与しません。先に有効にしてください',
  ),
  notViewing: t('当前未处于角色切换状态', 'You are not viewing the console as another role', 'No está viendo la consola como otro rol', '他のロールとして表示していません'),
  // Master data and uploads (diseases, systems, acupoints, schematics, /base/upload_*)
  refMissing: t('{field}：以下记录不存在：{ids}', '{field}: no such record: {ids}', '{field}: no existe el registro: {ids}', '{field}：存在しないレコード：{ids}'),
  holderDiseases: t('{count} 个疾病（{names}）', '{count} disease(s) ({names})', '{count} enfermedad(es) ({names})', '{count} 件の疾患（{names}）'),
  holderSubsystems: t('{count} 个子系统（{names}）', '{count} subsystem(s) ({names})', '{count} subsistema(s) ({names})', '{count} 件のサブシステム（{names}）'),
  holderSchematics: t('{count} 张示意图（{names}）', '{count} schematic diagram(s) ({names})', '{count} diagrama(s) ({names})', '{count} 枚の図解（{names}）'),
  systemParentNotTop: t('上级必须是一级身体系统', 'The parent must be a top-level body system', 'El padre debe ser un sistema corporal de primer nivel', '親は第1階層の身体系統である必要があります'),
  systemHasChildren: t(
    '该系统下还有子系统，不能成为子系统',
    'This body system has subsystems, so it cannot become a subsystem',
    'Este sistema tiene subsistemas, por lo que no puede ser un subsistema',
    'この系統にはサブシステムがあるため、サブシステムにはできません',
  ),
  patternDuplicate: t(
    '经络条件重复：{meridian} {status}',
    'Meridian condition listed twice: {meridian} {status}',
    'Condición de meridiano repetida: {meridian} {status}',
    '経絡条件が重複しています：{meridian} {status}',
  ),
  patternConflict: t(
    '经络 {meridian} 不能同时为实和虚',
    'Meridian {meridian} cannot be both excess and deficient',
    'El meridiano {meridian} no puede estar a la vez en exceso y en deficiencia',
    '経絡 {meridian} は実と虚を同時に指定できません',
  ),
  intensityRange: t('最小强度不能大于最大强度', 'The minimum intensity cannot exceed the maximum intensity', 'La intensidad mínima no puede superar la máxima', '最小強度は最大強度を超えられません'),
  uploadNoFile: t(
    '请选择要上传的文件（表单字段 file）',
    'Choose a file to upload (form field "file")',
    'Elija un archivo para subir (campo "file")',
    'アップロードするファイルを選択してください（フォーム項目 file）',
  ),
  uploadEmpty: t('文件为空', 'The file is empty', 'El archivo está vacío', 'ファイルが空です'),
  uploadTooLarge: t('文件超过 {max} MB 上限', 'The file is larger than the {max} MB limit', 'El archivo supera el límite de {max} MB', 'ファイルが上限の {max} MB を超えています'),
  uploadBadName: t(
    '文件名无效：不能包含路径或控制字符',
    'Invalid file name: it cannot contain a path or control characters',
    'Nombre de archivo no válido: no puede contener una ruta ni caracteres de control',
    'ファイル名が無効です：パスや制御文字は使用できません',
  ),
  uploadNotImage: t(
    '文件内容不是图片（仅支持 PNG、JPEG、GIF、WebP）',
    'The file content is not an image (PNG, JPEG, GIF or WebP only)',
    'El contenido del archivo no es una imagen (solo PNG, JPEG, GIF o WebP)',
    'ファイルの内容が画像ではありません（PNG、JPEG、GIF、WebPのみ）',
  ),
  uploadBadType: t(
    '不支持的文件类型（支持图片、PDF、ZIP/XLSX/DOCX、CSV 和 UTF-8 文本）',
    'File type not allowed (images, PDF, ZIP/XLSX/DOCX, CSV and UTF-8 text only)',
    'Tipo de archivo no permitido (solo imágenes, PDF, ZIP/XLSX/DOCX, CSV y texto UTF-8)',
    '許可されていないファイル形式です（画像、PDF、ZIP/XLSX/DOCX、CSV、UTF-8テキストのみ）',
  ),
  uploadBadImage: t(
    '图片已损坏或尺寸无效（每边最多 {max} 像素）',
    'The image is damaged or its size is invalid (at most {max} pixels a side)',
    'La imagen está dañada o su tamaño no es válido (máximo {max} píxeles por lado)',
    '画像が破損しているか、サイズが無効です（1辺 {max} ピクセルまで）',
  ),
  // Packages, doctors, users, system parameters
  badPhone: t(
    '电话须为 5-20 位数字，可以 + 开头',
    'Enter 5 to 20 digits, optionally starting with +',
    'Introduzca de 5 a 20 dígitos, opcionalmente precedidos de +',
    '5～20 桁の数字で入力してください（先頭に + 可）',
  ),
  badIdNumber: t(
    '证件号只能包含字母、数字和连字符，最多 32 位',
    'The ID number may contain only letters, digits and hyphens, up to 32',
    'El número de documento solo puede contener letras, dígitos y guiones, hasta 32',
    '証明書番号は英字・数字・ハイフンのみ、32 文字以内で入力してください',
  ),
  idChecksum: t(
    '身份证号码校验位不正确',
    'This ID card number is not valid (wrong check digit)',
    'Este número de documento no es válido (dígito de control incorrecto)',
    'この身分証番号は正しくありません（チェックディジットの誤り）',
  ),
  birthDateFuture: t('出生日期不能晚于今天', 'The birth date cannot be in the future', 'La fecha de nacimiento no puede ser futura', '生年月日に未来の日付は指定できません'),
  birthDateTooOld: t(
    '出生日期不能早于 1900-01-01',
    'The birth date cannot be before 1900-01-01',
    'La fecha de nacimiento no puede ser anterior a 1900-01-01',
    '生年月日は 1900-01-01 以降にしてください',
  ),
  institutionMissing: t('所选机构不存在', 'The selected institution does not exist', 'La institución seleccionada no existe', '選択した機関は存在しません'),
  idNumberTaken: t('已有其他用户使用该证件号', 'Another user already has this ID number', 'Otro usuario ya tiene este número de documento', 'この証明書番号は別のユーザーが使用しています'),
  packageUsesRequired: t('次数套餐必须填写次数', 'A count package needs a number of uses', 'Un paquete por usos necesita un número de usos', '回数パッケージには回数が必要です'),
  packageDaysRequired: t('时长套餐必须填写天数', 'A time package needs a number of days', 'Un paquete por tiempo necesita un número de días', '期間パッケージには日数が必要です'),
  packageUsesNotAllowed: t('只有次数套餐才有次数', 'Only count packages have a number of uses', 'Solo los paquetes por usos tienen número de usos', '回数は回数パッケージにのみ設定できます'),
  packageDaysNotAllowed: t('只有时长套餐才有天数', 'Only time packages have a number of days', 'Solo los paquetes por tiempo tienen número de días', '日数は期間パッケージにのみ設定できます'),
  commissionSum: t(
    '一级与二级分佣比例之和不能超过 {max} 基点（100%）',
    'The grade-1 and grade-2 commission rates together cannot exceed {max} bp (100%)',
    'Las comisiones de grado 1 y 2 juntas no pueden superar {max} pb (100 %)',
    '1次と2次の手数料率の合計は {max} bp（100%）以下にしてください',
  ),
  packageNameTaken: t('已存在名为“{name}”的套餐', 'A package named "{name}" already exists', 'Ya existe un paquete llamado "{name}"', '「{name}」という名前のパッケージは既に存在します'),
  packageOnSale: t(
    '套餐正在销售中，请先下架再删除',
    'This package is on sale: take it off sale before deleting it',
    'Este paquete está a la venta: retírelo de la venta antes de eliminarlo',
    'このパッケージは販売中です。販売を停止してから削除してください',
  ),
  paramsNothing: t('没有要保存的参数', 'There is no parameter to save', 'No hay ningún parámetro que guardar', '保存するパラメータがありません'),
  paramIdleOverAbsolute: t(
    '空闲超时不能超过会话最长有效期',
    'The idle timeout cannot be longer than the maximum session lifetime',
    'La inactividad máxima no puede superar la duración máxima de la sesión',
    '無操作タイムアウトはセッションの最長有効期間を超えられません',
  ),
} satisfies Record<string, L10n>;

export type MessageKey = keyof typeof MESSAGES;

export function formatMessage(key: MessageKey, lang: Lang, params: Record<string, string | number> = {}): string {
  return pickText(MESSAGES[key], lang).replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}
