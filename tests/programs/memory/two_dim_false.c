// 2-D array: transposed indices give a different element somewhere
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int main() {
  int m[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) m[i][j] = i * 3 + j;
  int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int();
  if (i < 0 || i >= 3 || j < 0 || j >= 3) return 0;
  if (m[i][j] != m[j][i]) reach_error();
  return 0;
}
