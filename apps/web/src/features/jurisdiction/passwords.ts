import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { passwordRuleError } from '../../lib/password';

/**
 * Password fields: the client rules of spec §5 (not empty, at least the client minimum after
 * trimming). The system's own minimum is a parameter the server checks; its message then shows at
 * the field.
 */
export const passwordRules = (t: TFunction): FormRule[] => [
  { required: true, message: t('jurisdiction:password.required') },
  {
    validator: (_, value) => {
      if (!value) return Promise.resolve(); // "required" says it
      const err = passwordRuleError(value);
      return err ? Promise.reject(new Error(t(`common:${err.key}`, err.params))) : Promise.resolve();
    },
  },
  { max: 200 },
];

/** The confirmation must equal the field `other`. */
export const confirmRules = (t: TFunction, other: string): FormRule[] => [
  { required: true, message: t('jurisdiction:password.confirmRequired') },
  ({ getFieldValue }) => ({
    validator: (_, value) => (!value || getFieldValue(other) === value ? Promise.resolve() : Promise.reject(new Error(t('jurisdiction:password.mismatch')))),
  }),
];
