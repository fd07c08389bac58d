// each run of __builtin_alloca gets a new block that lives until main returns; the last run's
// block still holds i - 1 when read through `prev`: the error is reached natively at i = 1
extern void reach_error(void);
int main(void) {
  int *prev = 0;
  for (int i = 0; i < 10; i++) {
    int *p = __builtin_alloca(sizeof(int) * 2);
    p[0] = i;
    if (prev && *prev == i - 1) reach_error();
    prev = p;
  }
  return 0;
}
