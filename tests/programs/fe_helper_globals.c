/* A helper function, a loop, scalar globals (also written in the helper) and nondet inputs. */
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_error(void);

int counter = 0;
unsigned char mode = 1;
long total;

static int step(int x) {
  counter = counter + 1;
  mode = !mode;
  total += x;
  return x * 2;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  unsigned char start = __VERIFIER_nondet_uchar();
  int i = start;
  while (i < n) {
    i = i + step(i);
  }
  if (counter == 3 && mode == 0) {
    __VERIFIER_error();
  }
  return 0;
}
