/** The roles a key can hold, from least to most trusted (what each may do: roles.ts). */
export const roles = ["agent", "reviewer", "admin"] as const;
export type Role = (typeof roles)[number];
