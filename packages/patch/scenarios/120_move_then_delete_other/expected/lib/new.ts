export const a = 2;
