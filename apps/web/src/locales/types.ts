/** The same keys as a reference locale, every leaf a string: other locales are typed with it. */
export type LocaleShape<T> = { [K in keyof T]: T[K] extends string ? string : LocaleShape<T[K]> };
