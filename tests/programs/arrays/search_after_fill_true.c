// search a 100 000-element array filled with a[i] = i for x: found only if 0 <= x < 100000: TRUE ((found == 0 || x < i) at the second loop; its runs are found by scaled runs)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000];
int main() {
  int x = __VERIFIER_nondet_int(), found = 0;
  for (int i = 0; i < 100000; i++) a[i] = i;
  for (int i = 0; i < 100000; i++)
    if (a[i] == x) found = 1;
  if (found && (x < 0 || x >= 100000)) reach_error();
  return 0;
}
