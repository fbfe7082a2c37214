using System.Xml.Linq;

namespace Exchange.Fix.Dictionary;

/// <summary>
/// Builds <see cref="FixDictionary"/> tables from a QuickFIX-format XML dictionary. Runs once at start-up, so it
/// favours clarity over speed; nothing it creates is touched on the hot path except the final arrays.
/// </summary>
internal static class FixDictionaryLoader
{
    public static FixDictionary Load(Stream xml)
    {
        XElement root = XDocument.Load(xml).Root ?? throw new InvalidDataException("Empty FIX dictionary.");
        XElement fieldsElement = Required(root, "fields");
        var byName = new Dictionary<string, FieldDefinition>(StringComparer.Ordinal);
        int maxTag = 0;
        foreach (XElement field in fieldsElement.Elements("field"))
        {
            int tag = int.Parse(Attr(field, "number"), System.Globalization.CultureInfo.InvariantCulture);
            string name = Attr(field, "name");
            var values = field.Elements("value").Select(v => Attr(v, "enum")).ToList();
            byName[name] = new FieldDefinition(tag, name, MapType(Attr(field, "type")), values);
            maxTag = Math.Max(maxTag, tag);
        }

        var fields = new FieldDefinition?[maxTag + 1];
        foreach (FieldDefinition definition in byName.Values)
        {
            fields[definition.Tag] = definition;
        }

        var components = (root.Element("components")?.Elements("component") ?? [])
            .ToDictionary(c => Attr(c, "name"), StringComparer.Ordinal);
        XElement header = Required(root, "header");
        XElement trailer = Required(root, "trailer");

        var messages = new List<MessageDefinition>();
        var groups = new GroupBuilder(byName, components, maxTag);
        foreach (XElement message in Required(root, "messages").Elements("message"))
        {
            var flags = new byte[maxTag + 1];
            var required = new List<int>();
            var topGroups = new List<GroupDefinition>();
            var context = new FlattenContext(byName, components, flags, required, groups, topGroups);
            context.Flatten(header, FieldFlags.Header, requiredContext: true, inGroup: false);
            context.Flatten(message, FieldFlags.None, requiredContext: true, inGroup: false);
            context.Flatten(trailer, FieldFlags.Trailer, requiredContext: true, inGroup: false);
            messages.Add(new MessageDefinition(
                Attr(message, "msgtype"), Attr(message, "name"), Attr(message, "msgcat") == "admin", flags, [.. required],
                [.. topGroups]));
        }

        return new FixDictionary(fields, messages, DataFieldPairing.Derive(root));
    }

    private static FixFieldType MapType(string type) => type switch
    {
        "INT" or "SEQNUM" or "LENGTH" or "NUMINGROUP" or "DAYOFMONTH" => FixFieldType.Int,
        "PRICE" or "QTY" or "AMT" or "FLOAT" or "PRICEOFFSET" or "PERCENTAGE" => FixFieldType.Decimal,
        "CHAR" => FixFieldType.Char,
        "BOOLEAN" => FixFieldType.Boolean,
        "UTCTIMESTAMP" => FixFieldType.UtcTimestamp,
        "UTCDATEONLY" or "LOCALMKTDATE" => FixFieldType.Date,
        "MULTIPLEVALUESTRING" => FixFieldType.MultipleValue,
        _ => FixFieldType.Text,
    };

    private static XElement Required(XElement parent, string name) =>
        parent.Element(name) ?? throw new InvalidDataException($"FIX dictionary has no <{name}>.");

    private static string Attr(XElement element, string name) =>
        element.Attribute(name)?.Value ?? throw new InvalidDataException($"<{element.Name}> lacks attribute '{name}'.");

    private static FieldDefinition FieldNamed(Dictionary<string, FieldDefinition> fields, string name) =>
        fields.TryGetValue(name, out FieldDefinition? field) ? field : throw new InvalidDataException($"Unknown field '{name}'.");

    private static XElement ComponentNamed(Dictionary<string, XElement> components, string name) =>
        components.TryGetValue(name, out XElement? c) ? c : throw new InvalidDataException($"Unknown component '{name}'.");

    /// <summary>
    /// One <see cref="GroupDefinition"/> per XML group element: a group inside a component is the same element for
    /// every message that uses the component, so it is built once and shared.
    /// </summary>
    private sealed class GroupBuilder(
        Dictionary<string, FieldDefinition> fields,
        Dictionary<string, XElement> components,
        int maxTag)
    {
        private readonly Dictionary<XElement, GroupDefinition> _built = [];

        public GroupDefinition Build(XElement group)
        {
            if (_built.TryGetValue(group, out GroupDefinition? done))
            {
                return done;
            }

            var members = new List<int>();
            var nested = new List<GroupDefinition?>();
            var required = new List<bool>();
            Collect(group, members, nested, required, requiredContext: true);
            var definition = new GroupDefinition(
                FieldNamed(fields, Attr(group, "name")).Tag, [.. members], [.. nested], [.. required], maxTag);
            if (definition.Depth > GroupWalker.MaxDepth)
            {
                throw new InvalidDataException($"Group '{Attr(group, "name")}' nests deeper than {GroupWalker.MaxDepth} levels.");
            }

            _built[group] = definition;
            return definition;
        }

        /// <summary>
        /// Direct members in dictionary order, components expanded; a nested group is its NumInGroup tag. A member is
        /// required in every instance when it and each component around it (inside this group) say required="Y".
        /// </summary>
        private void Collect(XElement element, List<int> members, List<GroupDefinition?> nested, List<bool> required, bool requiredContext)
        {
            foreach (XElement child in element.Elements())
            {
                bool isRequired = requiredContext && (string?)child.Attribute("required") == "Y";
                switch (child.Name.LocalName)
                {
                    case "field":
                        members.Add(FieldNamed(fields, Attr(child, "name")).Tag);
                        nested.Add(null);
                        required.Add(isRequired);
                        break;
                    case "group":
                        members.Add(FieldNamed(fields, Attr(child, "name")).Tag);
                        nested.Add(Build(child));
                        required.Add(isRequired);
                        break;
                    case "component":
                        Collect(ComponentNamed(components, Attr(child, "name")), members, nested, required, isRequired);
                        break;
                }
            }
        }
    }

    private sealed class FlattenContext(
        Dictionary<string, FieldDefinition> fields,
        Dictionary<string, XElement> components,
        byte[] flags,
        List<int> required,
        GroupBuilder groups,
        List<GroupDefinition> topGroups)
    {
        /// <summary>
        /// Marks every field reachable from <paramref name="element"/>. A field is required for the message only if
        /// it and every enclosing component are required and it is not inside a repeating group (group members are
        /// required only when their group is present, which this flat table does not check). Top-level groups are
        /// built as <see cref="GroupDefinition"/>s for the walk's count and member-order checks.
        /// </summary>
        public void Flatten(XElement element, FieldFlags section, bool requiredContext, bool inGroup)
        {
            foreach (XElement child in element.Elements())
            {
                bool isRequired = requiredContext && (string?)child.Attribute("required") == "Y";
                switch (child.Name.LocalName)
                {
                    case "field":
                        Mark(Attr(child, "name"), section, isRequired && !inGroup, inGroup);
                        break;
                    case "group":
                        Mark(Attr(child, "name"), section, isRequired && !inGroup, inGroup);
                        if (!inGroup)
                        {
                            GroupDefinition group = groups.Build(child);
                            topGroups.Add(group);
                            flags[group.CountTag] |= (byte)FieldFlags.GroupCount;
                        }

                        Flatten(child, section, requiredContext: false, inGroup: true);
                        break;
                    case "component":
                        Flatten(ComponentNamed(components, Attr(child, "name")), section, isRequired, inGroup);
                        break;
                }
            }
        }

        private void Mark(string name, FieldFlags section, bool isRequired, bool inGroup)
        {
            FieldDefinition field = FieldNamed(fields, name);
            var f = (FieldFlags)flags[field.Tag] | FieldFlags.Allowed | section;
            f |= inGroup ? FieldFlags.GroupMember : FieldFlags.TopLevel;

            if (isRequired && (f & FieldFlags.Required) == 0)
            {
                f |= FieldFlags.Required;
                required.Add(field.Tag);
            }

            flags[field.Tag] = (byte)f;
        }
    }
}
