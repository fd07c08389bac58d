// buffer_reused_true.c with the 58th buffer's cell overwritten: the sum misses one (FALSE,
// 57 blocks freed before it; the error needs the pool's object handed out again)
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);
int main(void) {
  int total = 0;
  for (int i = 0; i < 100; i++) {
    int *p = malloc(sizeof(int) * 4);
    p[0] = i;
    p[3] = 1;
    if (i == 57) p[3] = 0;
    total += p[3] + p[0] - i;
    free(p);
  }
  if (total != 100) reach_error();
  return 0;
}
