"""What the event pages share at the HTTP edge, so that no view module imports another:
finding the event of a public page and its 404 page (`public`), the polls' conditional
answers (`polls`), who may open an organiser page (`access`), and the organiser forms' one
way from a posted form through a service to the page again (`forms_flow`)."""
