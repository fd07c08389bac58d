// 2-D array: m[i][j] == i * 4 + j at nondet indices
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int main() {
  int m[3][4];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) m[i][j] = i * 4 + j;
  int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int();
  if (i < 0 || i >= 3 || j < 0 || j >= 4) return 0;
  if (m[i][j] != i * 4 + j) reach_error();
  return 0;
}
