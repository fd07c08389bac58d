// a list of 5 nodes built in a loop, then summed, with a wrong expected sum (it is 15)
#include <stdlib.h>
extern void reach_error(void);
struct node { int data; struct node *next; };
int main() {
  struct node *head = 0;
  for (int i = 1; i <= 5; i++) {
    struct node *n = malloc(sizeof(struct node));
    n->data = i;
    n->next = head;
    head = n;
  }
  int sum = 0;
  for (struct node *p = head; p; p = p->next) sum += p->data;
  if (sum != 16) reach_error();
  return 0;
}
