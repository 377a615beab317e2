import { startAra } from "@payspec/third-party";
import { realServerSuite } from "../support/real-server-suite.js";

realServerSuite("ARA Records Ansible (Python, Django REST framework, from Debian's packages)", startAra, {
  keepCreatedRun: false,
});
