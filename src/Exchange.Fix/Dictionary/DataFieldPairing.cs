using System.Globalization;
using System.Xml.Linq;

namespace Exchange.Fix.Dictionary;

/// <summary>
/// Derives <see cref="DataFieldPairs"/> from a QuickFIX-format dictionary, once at start-up.
/// </summary>
/// <remarks>
/// <para>
/// The rule is FIX's own: a LENGTH field "must immediately precede" the DATA field it counts. So wherever a DATA field
/// is used (standard header, trailer, message, component, group), the element just before it must be a field of type
/// LENGTH, and it must be the same LENGTH field at every use. Tag numbers do not give the pair (SignatureLength is 93,
/// Signature 89), so they are not used.
/// </para>
/// <para>
/// The names are a second, independent witness: FIX names the length field of &lt;Name&gt; "&lt;Name&gt;Len" or
/// "&lt;Name&gt;Length". A position that disagrees with the name is a broken dictionary, not a choice to make
/// silently, so loading fails (and since the name follows from the DATA field's, no LENGTH field can count two). A
/// DATA field no message uses is paired by name alone (it can never pass validation, but the tokenizer still has to
/// know how to skip it). Any DATA field left without a LENGTH field fails the load: the venue would otherwise split
/// its value at the first SOH it contains.
/// </para>
/// </remarks>
internal static class DataFieldPairing
{
    private const string LengthType = "LENGTH";
    private const string DataType = "DATA";

    public static DataFieldPairs Derive(XElement root)
    {
        var fields = new Dictionary<string, (int Tag, string Type)>(StringComparer.Ordinal);
        foreach (XElement field in root.Element("fields")?.Elements("field") ?? [])
        {
            fields[Attr(field, "name")] = (int.Parse(Attr(field, "number"), CultureInfo.InvariantCulture), Attr(field, "type"));
        }

        var lengthOf = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (string section in (string[])["header", "trailer", "messages", "components"])
        {
            foreach (XElement container in root.Element(section)?.DescendantsAndSelf() ?? [])
            {
                PairByPosition(container, fields, lengthOf);
            }
        }

        foreach ((string name, (int _, string type)) in fields)
        {
            if (type == DataType && !lengthOf.ContainsKey(name))
            {
                lengthOf[name] = LengthFieldNamedFor(name, fields)
                    ?? throw new InvalidDataException($"DATA field '{name}' has no LENGTH field: none precedes it and none is named {name}Len or {name}Length.");
            }
        }

        return new DataFieldPairs([.. lengthOf.Select(pair => new DataFieldPair(fields[pair.Value].Tag, fields[pair.Key].Tag))]);
    }

    /// <summary>Pairs every DATA field among <paramref name="container"/>'s children with the field just before it.</summary>
    private static void PairByPosition(XElement container, Dictionary<string, (int Tag, string Type)> fields, Dictionary<string, string> lengthOf)
    {
        XElement? previous = null;
        foreach (XElement child in container.Elements())
        {
            string kind = child.Name.LocalName;
            if (kind is not ("field" or "group" or "component"))
            {
                continue;
            }

            if (kind == "field" && TypeOf(child, fields) == DataType)
            {
                string data = Attr(child, "name");
                string where = container.Attribute("name")?.Value ?? container.Name.LocalName;
                if (previous is null || previous.Name.LocalName != "field" || TypeOf(previous, fields) != LengthType)
                {
                    throw new InvalidDataException($"DATA field '{data}' in '{where}' is not immediately preceded by a LENGTH field.");
                }

                string length = Attr(previous, "name");
                if (length != data + "Len" && length != data + "Length")
                {
                    throw new InvalidDataException($"DATA field '{data}' in '{where}' is preceded by '{length}', not by {data}Len or {data}Length.");
                }

                if (lengthOf.TryGetValue(data, out string? earlier) && earlier != length)
                {
                    throw new InvalidDataException($"DATA field '{data}' is preceded by '{earlier}' in one place and by '{length}' in '{where}'.");
                }

                lengthOf[data] = length;
            }

            previous = child;
        }
    }

    private static string? LengthFieldNamedFor(string data, Dictionary<string, (int Tag, string Type)> fields)
    {
        foreach (string name in (string[])[data + "Len", data + "Length"])
        {
            if (fields.TryGetValue(name, out (int Tag, string Type) field) && field.Type == LengthType)
            {
                return name;
            }
        }

        return null;
    }

    private static string TypeOf(XElement use, Dictionary<string, (int Tag, string Type)> fields) =>
        fields.TryGetValue(Attr(use, "name"), out (int Tag, string Type) field) ? field.Type : string.Empty;

    private static string Attr(XElement element, string name) =>
        element.Attribute(name)?.Value ?? throw new InvalidDataException($"<{element.Name}> lacks attribute '{name}'.");
}
