// a list of 1000 nodes built by prepending, each holding 2, then walked: every node holds 2
#include <stdlib.h>
extern void reach_error(void);
struct node { int data; struct node *next; };
int main() {
  struct node *head = 0;
  for (int i = 0; i < 1000; i++) {
    struct node *n = malloc(sizeof(struct node));
    if (!n) abort();
    n->data = 2;
    n->next = head;
    head = n;
  }
  for (struct node *p = head; p; p = p->next)
    if (p->data != 2) reach_error();
  return 0;
}
