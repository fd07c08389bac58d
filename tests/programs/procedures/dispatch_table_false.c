/* A dispatch table of operations chosen by nondet input, in a loop. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
static int inc(int x) { return x + 1; }
static int dec(int x) { return x - 1; }
static int twice(int x) { return 2 * x; }
static int (*const table[3])(int) = {inc, dec, twice};
int main(void) {
  int x = 1;
  for (int i = 0; i < 4; i++) {
    int op = __VERIFIER_nondet_int();
    if (op < 0 || op > 2) return 0;
    x = table[op](x);
  }
  if (x == 10) reach_error();   /* inc, twice, inc, twice: ((1 + 1) * 2 + 1) * 2 */
  return 0;
}
