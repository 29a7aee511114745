export interface InstitutionOption {
  id: number;
  name: string;
  grade: 1 | 2 | 3;
  parent_id: number | null;
}
