extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void *malloc(unsigned long);
extern void free(void *);
struct node { int data; struct node *next; };
int main(void) {
  struct node *head = 0;
  for (int i = 0; i < 5; i++) {
    struct node *n = malloc(sizeof *n);
    n->data = 1;
    n->next = head;
    head = n;
  }
  int count = 0;
  for (struct node *p = head; p; p = p->next) { __VERIFIER_assert(p->data == 1); count++; }
  __VERIFIER_assert(count == 5);
  return 0;
}
