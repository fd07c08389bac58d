/* The same table: no sequence of inc and dec keeps x off its parity ... x stays in [1-4, 1+4]. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
static int inc(int x) { return x + 1; }
static int dec(int x) { return x - 1; }
static int (*const table[2])(int) = {inc, dec};
int main(void) {
  int x = 1;
  for (int i = 0; i < 4; i++) {
    int op = __VERIFIER_nondet_int();
    if (op < 0 || op > 1) return 0;
    x = table[op](x);
  }
  if (x < -3 || x > 5 || (x & 1) == 0) reach_error();
  return 0;
}
