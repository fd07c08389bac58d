extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
struct node { int data; struct node *next; };
extern void free(void *);
int main(void) {
  struct node *head = 0;
  for (int i = 0; i < 10; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n) abort();
    n->data = i == 0 ? 0 : 1;
    n->next = head;
    head = n;
  }
  for (struct node *n = head; n; n = n->next) __VERIFIER_assert(n->data == 1);
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
