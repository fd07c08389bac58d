/* A loop with continue and break: sum reaches 300 only by three accepted values of 100;
   a value above 100 leaves the loop, a negative one is skipped. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int sum = 0;
  int i = 0;
  while (i < 5) {
    i++;
    int x = __VERIFIER_nondet_int();
    if (x < 0) continue;
    if (x > 100) break;
    sum += x;
  }
  if (sum == 300 && i == 4) reach_error();
  return 0;
}
