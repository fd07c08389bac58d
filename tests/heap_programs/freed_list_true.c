// a list of 4 nodes built with calloc in a loop and freed completely (valid-memsafety TRUE)
#include <stdlib.h>
extern void reach_error(void);
struct node { int data; struct node *next; };
int main() {
  struct node *head = 0;
  for (int i = 0; i < 4; i++) {
    struct node *n = calloc(1, sizeof(struct node));
    if (n->data != 0) reach_error();
    n->data = i;
    n->next = head;
    head = n;
  }
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
